/**
 * New project: name, customer, machine, material and tool library, then the part (dropped or
 * chosen) uploaded with a progress bar; then the stock offsets with the stock's size shown as
 * they are typed (the part's bounding box plus the offsets), and "Plan", which saves the stock,
 * starts the automated CAM planning and follows its task to 100 %.
 */
import { useEffect, useState } from "preact/hooks";
import { page } from "../api/base.ts";
import {
  createProject,
  deleteProject,
  type EquipmentLibrary,
  listLibraries,
  listMachines,
  listMaterials,
  type Machine,
  type Material,
  type Project,
  projectUrl,
} from "../api/projects.ts";
import { ApiError } from "../api/client.ts";
import { uploadFile } from "../api/transfer.ts";
import { FieldError, FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";
import { useSession } from "../session.ts";
import { PlanStep, type Uploaded } from "./plan-step.tsx";
import "./projects.css";

interface Choices {
  machines: Machine[];
  materials: Material[];
  libraries: EquipmentLibrary[];
}

function Picker(props: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  options: { value: string; label: string }[];
  /** the choice of none; left out where the page preselects what the API would choose */
  empty?: string;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        {props.empty === undefined ? null : <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function NewProjectPage() {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const { session } = useSession();
  usePageTitle(text.create.title);
  const [choices, setChoices] = useState<Choices>({ machines: [], materials: [], libraries: [] });
  const [name, setName] = useState("");
  const [customer, setCustomer] = useState("");
  const [machine, setMachine] = useState("");
  const [material, setMaterial] = useState("");
  const [library, setLibrary] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [project, setProject] = useState<Project | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [missing, setMissing] = useState<{ name?: string; file?: string }>({});

  useEffect(() => {
    Promise.all([listMachines(), listMaterials(), listLibraries()])
      .then(([machines, materials, libraries]) => {
        setChoices({ machines: machines.items, materials: materials.items, libraries: libraries.items });
        // shown as chosen what the API takes when none is given: the user's first machine and
        // default library, by name, rather than a "Default" that names neither
        setMachine((chosen) => chosen || (machines.items[0]?.product_id ?? ""));
        setLibrary((chosen) => chosen || (libraries.items.find((l) => l.is_default)?.id ?? ""));
      })
      .catch(setError);
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const problems = {
      ...(name.trim() ? {} : { name: text.create.nameRequired }),
      ...(file ? {} : { file: text.create.fileRequired }),
    };
    setMissing(problems);
    if (!file || Object.keys(problems).length > 0 || !session) return;
    setError(null);
    setProgress(0);
    // a project made for this file only, so a refused file takes it back out again
    let made: Project | null = null;
    try {
      const target =
        project ??
        (await createProject({
          name: name.trim(),
          customer: customer.trim(),
          ...(machine ? { product_id: machine } : {}),
          ...(material ? { material_id: material } : {}),
          ...(library ? { library_id: library } : {}),
        }));
      if (target !== project) made = target;
      setProject(target);
      const answer = await uploadFile<Omit<Uploaded, "fileName">>(
        `${projectUrl(target.id)}/workpiece`,
        file,
        setProgress,
      );
      setUploaded({ ...answer, fileName: file.name });
    } catch (caught) {
      setError(caught);
      setProgress(null);
      // The API refused the file (not a part, too large, busy): the project has no part and is
      // deleted, so none is left empty; the form stays for another file or other values. Without
      // an answer (the network) the upload may have landed, so the project stays and the next
      // file goes to it.
      if (made && caught instanceof ApiError && caught.status >= 400 && caught.status !== 401) {
        const empty = made;
        await deleteProject(empty.id).then(
          () => setProject((current) => (current?.id === empty.id ? null : current)),
          () => undefined,
        );
      }
    }
  };

  const pick = (files: FileList | null | undefined) => {
    const chosen = files?.[0];
    if (chosen) {
      setFile(chosen);
      setMissing((before) => ({ ...before, file: undefined }));
    }
  };

  const busy = progress !== null && uploaded === null;
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={page("/projects")}>← {text.project.back}</a>
      </p>
      <h1 id="page-title">{text.create.title}</h1>
      <p class="lead">{text.create.lead}</p>
      <form class="card" noValidate onSubmit={(event) => void submit(event)}>
        <FormError error={error} />
        <div class="field">
          <label for="project-name">{text.create.name}</label>
          <input
            id="project-name"
            value={name}
            maxLength={200}
            disabled={project !== null}
            onInput={(event) => {
              const typed = event.currentTarget.value;
              setName(typed);
              if (typed.trim()) setMissing((before) => ({ ...before, name: undefined }));
            }}
            aria-invalid={missing.name ? true : undefined}
            aria-describedby={missing.name ? "project-name-error" : undefined}
          />
          <FieldError id="project-name-error" message={missing.name} />
        </div>
        <div class="field">
          <label for="project-customer">{text.create.customer}</label>
          <input
            id="project-customer"
            value={customer}
            maxLength={200}
            disabled={project !== null}
            onInput={(event) => setCustomer(event.currentTarget.value)}
            aria-describedby="project-customer-hint"
          />
          <p id="project-customer-hint" class="muted small">
            {text.create.customerHint}
          </p>
        </div>
        <fieldset class="pickers" disabled={project !== null}>
          <Picker
            id="project-machine"
            label={text.create.machine}
            value={machine}
            onChange={setMachine}
            {...(choices.machines.length === 0 ? { empty: text.create.defaultChoice } : {})}
            options={choices.machines.map((m) => ({ value: m.product_id, label: m.name }))}
          />
          <Picker
            id="project-material"
            label={text.create.material}
            value={material}
            onChange={setMaterial}
            empty={text.create.choose}
            options={choices.materials.map((m) => ({ value: m.id, label: m.name }))}
          />
          <Picker
            id="project-library"
            label={text.create.library}
            value={library}
            onChange={setLibrary}
            {...(choices.libraries.some((l) => l.is_default) ? {} : { empty: text.create.defaultChoice })}
            options={choices.libraries.map((l) => ({ value: l.id, label: l.library.name }))}
          />
        </fieldset>
        <fieldset
          class={`drop${dragging ? " over" : ""}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            pick(event.dataTransfer?.files);
          }}
        >
          <legend>
            <label for="project-part">{text.create.part}</label>
          </legend>
          <p class="muted small" id="project-part-hint">
            {text.create.partHint}
          </p>
          <input
            id="project-part"
            type="file"
            accept=".step,.stp,.stl,.brep,.brp"
            disabled={busy || uploaded !== null}
            onChange={(event) => pick(event.currentTarget.files)}
            aria-describedby="project-part-hint"
          />
          <FieldError id="project-part-error" message={missing.file} />
        </fieldset>
        {progress !== null && uploaded === null ? (
          <div class="progress-line">
            <progress value={progress} max={1} aria-label={text.create.part} />
            <span role="status">
              {progress < 1
                ? fill(text.create.uploading, { pct: formatNumber(Math.floor(progress * 100)) })
                : text.create.reading}
            </span>
          </div>
        ) : null}
        {uploaded === null ? (
          <button type="submit" class="primary" disabled={busy}>
            {project ? text.create.uploadAgain : text.create.upload}
          </button>
        ) : null}
      </form>
      {project && uploaded ? <PlanStep project={project} uploaded={uploaded} /> : null}
    </section>
  );
}
