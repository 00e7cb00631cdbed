/**
 * A project's files: G-code per setup (POST /post/run, so fetched with the CSRF token and
 * saved), the job file and the setup sheet (GET: plain links that carry the session's cookie).
 */
import { useState } from "preact/hooks";
import type { PlanResult } from "../api/projects.ts";
import { downloadFile } from "../api/transfer.ts";
import { FormError } from "../components/errors.tsx";
import { fill } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";

export function Downloads(props: { projectUrl: string; projectId: string; plan: PlanResult | null; hasJob: boolean }) {
  const text = useProjectsText();
  const [error, setError] = useState<unknown>(null);
  if (!props.hasJob) return null;

  const gcode = async (index: number) => {
    setError(null);
    try {
      await downloadFile(
        "POST",
        `${props.projectUrl}/post/run?setup_index=${index}`,
        `${props.projectId}_${index + 1}.nc`,
      );
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section class="card" aria-labelledby="downloads-title">
      <h2 id="downloads-title">{text.project.downloads}</h2>
      <FormError error={error} />
      <ul class="downloads">
        {props.plan?.setups.map((setup) => (
          <li key={setup.id}>
            <button type="button" onClick={() => void gcode(setup.index)}>
              {fill(text.project.gcode, { setup: setup.name })}
            </button>
          </li>
        ))}
        <li>
          <a href={`${props.projectUrl}/job`} download>
            {text.project.job}
          </a>
        </li>
        {props.plan ? (
          <>
            <li>
              <a href={`${props.projectUrl}/setup-sheet?format=html`} target="_blank" rel="noopener">
                {text.project.sheetHtml}
              </a>
            </li>
            <li>
              <a href={`${props.projectUrl}/setup-sheet?format=pdf`} download>
                {text.project.sheetPdf}
              </a>
            </li>
          </>
        ) : null}
      </ul>
    </section>
  );
}
