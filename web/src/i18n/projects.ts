/** The Projects, Project and Quote pages' texts in the user's language (the shell's switch). */
import { useI18n } from "./index.ts";
import { projectsDe } from "./projects-de.ts";
import { projectsEn, type ProjectsMessages } from "./projects-en.ts";

export function useProjectsText(): ProjectsMessages {
  return useI18n().language === "de" ? projectsDe : projectsEn;
}

/** seconds as "1 h 02 min" or "3 min 20 s" */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, "0")} s`;
  return `${s} s`;
}
