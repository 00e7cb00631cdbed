/**
 * A Fusion 360 tool library file uploaded into the library (POST .../import/fusion): the API
 * reads it, adds what it can and says what it skipped; a file it refuses shows its message.
 */
import { useState } from "preact/hooks";
import { importFusion, type FusionImportResult } from "../../api/libraries.ts";
import { FormError } from "../../components/errors.tsx";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { fill } from "../../i18n/index.ts";

export function FusionImport({ libraryId, onImported }: { libraryId: string; onImported(message: string): void }) {
  const t = useEquipmentTexts().library;
  const [file, setFile] = useState<File | null>(null);
  const [manufacturer, setManufacturer] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<FusionImportResult | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const done = await importFusion(libraryId, file, manufacturer);
      setResult(done);
      onImported(fill(t.imported, { count: done.imported }));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="import-title">
      <h2 id="import-title">{t.importTitle}</h2>
      <p class="muted">{t.importLead}</p>
      <FormError error={error} />
      <div class="field-row">
        <div class="field">
          <label for="fusion-file">{t.file}</label>
          <input
            id="fusion-file"
            type="file"
            accept=".json,.tools,application/json"
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
        </div>
        <div class="field">
          <label for="fusion-manufacturer">{t.manufacturer}</label>
          <input
            id="fusion-manufacturer"
            type="text"
            maxLength={100}
            placeholder="Fusion 360 library"
            value={manufacturer}
            onInput={(event) => setManufacturer(event.currentTarget.value)}
          />
        </div>
      </div>
      <button type="submit" class="primary" disabled={busy || file === null}>
        {busy ? t.importing : t.importButton}
      </button>
      {result && result.skipped.length > 0 ? (
        <details class="skipped">
          <summary>{fill(t.skipped, { count: result.skipped.length })}</summary>
          <ul class="small">
            {result.skipped.map((skip) => (
              <li key={`${skip.index}-${skip.reason}`}>
                #{skip.index}: {skip.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </form>
  );
}
