import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  addressAllowed,
  checkWebhookUrl,
  classifyAddress,
  resolveWebhookTarget,
  WebhookUrlRefused,
  type WebhookPolicy,
} from "../../webhooks/address-policy.ts";
import { nextAttemptAt, RETRY_DELAYS_SECONDS } from "../../webhooks/schedule.ts";
import { signatureHeader, verifySignature } from "../../webhooks/signature.ts";

const NONE: WebhookPolicy = { allowed: [], requireHttps: false, timeoutMs: 1000 };

describe("address policy", () => {
  it("classifies IPv4 and IPv6 loopback, private, link-local (cloud metadata), forbidden and public addresses", () => {
    const expected: Record<string, string> = {
      "127.0.0.1": "loopback",
      "::1": "loopback",
      "::ffff:127.0.0.1": "loopback",
      "10.1.2.3": "private",
      "172.16.0.1": "private",
      "172.31.255.255": "private",
      "192.168.0.1": "private",
      "100.64.0.1": "private",
      "fd00:ec2::254": "private",
      "fc00::1": "private",
      "169.254.169.254": "link_local",
      "fe80::1": "link_local",
      "::ffff:169.254.169.254": "link_local",
      "64:ff9b::a9fe:a9fe": "link_local",
      "0.0.0.0": "forbidden",
      "::": "forbidden",
      "224.0.0.1": "forbidden",
      "255.255.255.255": "forbidden",
      "ff02::1": "forbidden",
      "93.184.216.34": "public",
      "172.32.0.1": "public",
      "2606:4700::1111": "public",
      "::ffff:8.8.8.8": "public",
    };
    for (const [ip, cls] of Object.entries(expected)) assert.equal(classifyAddress(ip), cls, ip);
  });

  it("judges an IPv6 address that embeds an IPv4 address (compatible, mapped, translated, NAT64, 6to4, Teredo) as what it embeds", () => {
    // Teredo: server IPv4 in groups 2-3, client IPv4 in groups 6-7 with every bit flipped; 7f00:1 flipped is 80ff:fffe
    const expected: Record<string, string> = {
      "::127.0.0.1": "loopback",
      "::7f00:1": "loopback",
      "::10.0.0.1": "private",
      "::169.254.169.254": "link_local",
      "::0.0.0.2": "forbidden",
      "::8.8.8.8": "public",
      "::ffff:0:127.0.0.1": "loopback",
      "::ffff:0:a9fe:a9fe": "link_local",
      "::ffff:0:8.8.8.8": "public",
      "::ffff:7f00:1": "loopback",
      "::ffff:10.1.2.3": "private",
      "64:ff9b::127.0.0.1": "loopback",
      "64:ff9b::8.8.8.8": "public",
      "64:ff9b:1::": "private",
      "64:ff9b:1:7f00:1::": "private",
      "2002:7f00:1::": "loopback",
      "2002:7f00:0001:abcd::1": "loopback",
      "2002:a00:1::": "private",
      "2002:a9fe:a9fe::": "link_local",
      "2002:e000:1::": "forbidden",
      "2002:808:808::1": "public",
      "2001:0:808:808::80ff:fffe": "loopback",
      "2001:0:7f00:1::f7f7:f7f7": "loopback",
      "2001:0:808:808::f5fe:fffe": "private",
      "2001:0:808:808::f7f7:f7f7": "public",
      "2001:0:a00:1::f7f7:f7f7": "private",
      "fec0::1": "private",
    };
    for (const [ip, cls] of Object.entries(expected)) assert.equal(classifyAddress(ip), cls, ip);
  });

  it("refuses webhook URLs whose literal IPv6 address embeds a non-public IPv4 address", () => {
    for (const url of [
      "https://[::127.0.0.1]:8443/x",
      "https://[::ffff:0:127.0.0.1]/x",
      "https://[2002:7f00:1::]/x",
      "https://[2001:0:808:808::80ff:fffe]/x",
      "https://[64:ff9b::a9fe:a9fe]/x",
    ]) {
      assert.throws(() => checkWebhookUrl(url, { ...NONE, requireHttps: true }), WebhookUrlRefused, url);
    }
    assert.equal(
      checkWebhookUrl("https://[2002:808:808::1]/x", { ...NONE, requireHttps: true }).hostname,
      "[2002:808:808::1]",
    );
  });

  it("allows only public addresses unless a class is configured; forbidden ones never", () => {
    assert.equal(addressAllowed("127.0.0.1", NONE), false);
    assert.equal(addressAllowed("127.0.0.1", { ...NONE, allowed: ["loopback"] }), true);
    assert.equal(addressAllowed("169.254.169.254", { ...NONE, allowed: ["loopback", "private"] }), false);
    assert.equal(addressAllowed("0.0.0.0", { ...NONE, allowed: ["loopback", "private", "link_local"] }), false);
  });

  it("resolves a host name and refuses it when any of its addresses is not allowed", async () => {
    await assert.rejects(resolveWebhookTarget("http://localhost:9/x", NONE), /not allowed/);
    const ok = await resolveWebhookTarget("http://localhost:9/x", { ...NONE, allowed: ["loopback"] });
    assert.ok(ok.addresses.length > 0);
    await assert.rejects(resolveWebhookTarget("http://127.0.0.1/x", { ...NONE, requireHttps: true }), /https/);
  });
});

describe("signature and schedule", () => {
  it("verifies its own header, refuses a timestamp more than 300 s away, and accepts any of several v1", () => {
    const body = '{"id":"x"}';
    const header = signatureHeader(["a", "b"], 1_000_000, body);
    assert.equal(verifySignature(header, body, "a", 1_000_000).ok, true);
    assert.equal(verifySignature(header, body, "b", 1_000_300).ok, true);
    assert.deepEqual(verifySignature(header, body, "a", 1_000_301), { ok: false, reason: "timestamp_out_of_range" });
    assert.deepEqual(verifySignature(header, body, "c", 1_000_000), { ok: false, reason: "no_match" });
    assert.deepEqual(verifySignature("v1=zz", body, "a", 1_000_000), { ok: false, reason: "malformed" });
  });

  it("spreads six attempts over about a day with ±20 % jitter", () => {
    const now = new Date(0);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const low = nextAttemptAt(attempt, now, () => 0)!.getTime() / 1000;
      const high = nextAttemptAt(attempt, now, () => 1)!.getTime() / 1000;
      assert.equal(low, RETRY_DELAYS_SECONDS[attempt - 1]! * 0.8);
      assert.equal(high, RETRY_DELAYS_SECONDS[attempt - 1]! * 1.2);
    }
    assert.equal(nextAttemptAt(6, now), null);
  });
});

describe("the example receiver (scripts/webhook-receiver.ts)", () => {
  it("accepts what the service signs and rejects a changed body, another secret or an old timestamp", async () => {
    const { verify } = await import("../../scripts/webhook-receiver.ts");
    const body = Buffer.from('{"id":"d","type":"task.started"}');
    const now = 2_000_000;
    const header = signatureHeader(["whsec_old", "whsec_new"], now, body);
    assert.equal(verify(header, body, "whsec_new", now), true);
    assert.equal(verify(header, body, "whsec_old", now + 300), true);
    assert.equal(verify(header, Buffer.from(`${body} `), "whsec_new", now), false);
    assert.equal(verify(header, body, "whsec_other", now), false);
    assert.equal(verify(header, body, "whsec_new", now + 301), false);
    assert.equal(verify(undefined, body, "whsec_new", now), false);
  });
});
