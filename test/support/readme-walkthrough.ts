/**
 * The README's walk-through as something a test can run: its shell blocks between the markers
 * `<!-- walk-through -->` and `<!-- end of walk-through -->`, cut into steps at the `# -> `
 * comments that show what a command answers. A step is the commands since the previous
 * step, with what the README says they print.
 */

export const WALKTHROUGH_START = "<!-- walk-through -->";
export const WALKTHROUGH_END = "<!-- end of walk-through -->";

export interface WalkthroughStep {
  /** the shell text, as the README has it */
  script: string;
  /** the first `# -> ` answer shown after it (alternatives after "or" left out), or null */
  shows: string | null;
  /** the README's line of the step's first command (1-based), for messages */
  line: number;
}

export function walkthroughSteps(readme: string): WalkthroughStep[] {
  const lines = readme.split("\n");
  const from = lines.findIndex((line) => line.trim() === WALKTHROUGH_START);
  const to = lines.findIndex((line) => line.trim() === WALKTHROUGH_END);
  if (from < 0 || to < from) throw new Error(`the README has no ${WALKTHROUGH_START} … ${WALKTHROUGH_END} section`);
  const steps: WalkthroughStep[] = [];
  let inBlock = false;
  let script: string[] = [];
  let scriptLine = 0;
  let shows: string[] | null = null;
  // after "# or …" the comment lists other answers the step may give: not compared
  let alternatives = false;
  const flush = () => {
    if (script.some((line) => line.trim() !== "" && !line.trim().startsWith("#"))) {
      steps.push({ script: script.join("\n"), shows: shows ? shows.join(" ") : null, line: scriptLine });
    }
    script = [];
    shows = null;
    alternatives = false;
  };
  for (let i = from + 1; i < to; i += 1) {
    const line = lines[i] as string;
    if (!inBlock) {
      if (/^```(sh|bash)\s*$/.test(line)) inBlock = true;
      continue;
    }
    if (line.startsWith("```")) {
      flush();
      inBlock = false;
      continue;
    }
    const answer = /^#\s*->\s?(.*)$/.exec(line.trim());
    if (answer) {
      if (shows) flush(); // a second answer shown: a step of its own, with nothing to run
      shows = [answer[1] as string];
      continue;
    }
    const comment = /^#\s+(.*)$/.exec(line.trim());
    if (shows && comment) {
      if (/^or\b/.test(comment[1] as string)) alternatives = true;
      if (!alternatives) shows.push(comment[1] as string);
      continue;
    }
    if (shows) flush();
    if (script.length === 0) scriptLine = i + 1;
    script.push(line);
  }
  return steps;
}

/** The JSON field names an answer shown in the README names: `"job_id": …` gives job_id. */
export function fieldsShown(shows: string): string[] {
  return [...new Set([...shows.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g)].map((m) => m[1] as string))];
}

/** The fields an answer shown gives as an empty list ("warnings": []): the answer's must be empty too. */
export function emptyListsShown(shows: string): string[] {
  return [...new Set([...shows.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*\[\]/g)].map((m) => m[1] as string))];
}

/** The HTTP status an answer shown starts with ("201 {…}"), or null. */
export function statusShown(shows: string): number | null {
  const match = /^(\d{3})\b/.exec(shows.trim());
  return match ? Number(match[1]) : null;
}
