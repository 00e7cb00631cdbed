/** Copies a secret shown once; says when the browser refused (no clipboard outside https). */
import { useState } from "preact/hooks";
import { useI18n } from "../i18n/index.ts";

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useI18n();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()} aria-label={label}>
        {state === "copied" ? t.keys.copied : t.keys.copy}
      </button>
      <span role="status" class="small muted">
        {state === "failed" ? t.keys.copyFailed : ""}
      </span>
    </>
  );
}
