import { useEffect } from "preact/hooks";

/** the tab's title: the page's name first */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Swarf`;
  }, [title]);
}
