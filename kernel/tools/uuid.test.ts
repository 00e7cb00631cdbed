import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUuid, NAMESPACE_URL, Uuid, uuidV5 } from "./uuid.ts";

const NAMESPACE_DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

describe("uuidV5", () => {
  it("matches the published vector for python.org in the DNS namespace", () => {
    assert.equal(uuidV5(NAMESPACE_DNS, "python.org"), "886313e1-3b8a-5372-9b90-0c9aee199e5d");
  });

  it("is stable, version 5 with the RFC variant, and differs by name and namespace", () => {
    const a = uuidV5(NAMESPACE_URL, "SSR-EM4-0600-L-TA");
    assert.equal(a, uuidV5(NAMESPACE_URL, "SSR-EM4-0600-L-TA"));
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a, uuidV5(NAMESPACE_URL, "SSR-EM4-0600-K-TA"));
    assert.notEqual(a, uuidV5(NAMESPACE_DNS, "SSR-EM4-0600-L-TA"));
  });

  it("refuses a namespace that is not a UUID", () => {
    assert.throws(() => uuidV5("not-a-uuid", "x"), /not a UUID/);
  });
});

describe("Uuid", () => {
  it("accepts versions 1 to 8 in either case and refuses the nil and max UUIDs and anything else", () => {
    for (const ok of ["0b3e7a64-0f67-4c2b-9a8e-1f2d3c4b5a69", "886313E1-3B8A-5372-9B90-0C9AEE199E5D", NAMESPACE_DNS]) {
      assert.equal(Uuid.safeParse(ok).success, true, ok);
      assert.equal(isUuid(ok), true, ok);
    }
    for (const bad of [
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "0b3e7a64-0f67-4c2b-1a8e-1f2d3c4b5a69",
      "0b3e7a640f674c2b9a8e1f2d3c4b5a69",
      "",
      42,
    ]) {
      assert.equal(Uuid.safeParse(bad).success, false, String(bad));
      assert.equal(isUuid(bad), false, String(bad));
    }
  });
});
