/**
 * What the viewer costs in the browser: the time from navigation to the first picture with the
 * first setup's toolpaths drawn, and frames drawn per second while the user orbits (a mouse
 * drag across the canvas for ORBIT_MS, its events sent faster than frames are drawn, so the
 * count is what the page can draw, not what the mouse sent).
 */
import type { Browser } from "playwright-core";
import { descendantsCpuMs } from "./process-cpu.ts";

const ORBIT_MS = 4000;
/** the browser is this process's child; the embedded database's processes are too */
const browserCpuMs = () => descendantsCpuMs(process.pid, /^postgres$/);

export interface ViewerFigures {
  open_ms: number;
  orbit_fps: number;
  /** mouse events the drag sent per second (the frame rate cannot be above this) */
  orbit_events_per_s: number;
  /**
   * the browser's CPU time (all its processes: the page, the GPU process's SwiftShader) per
   * frame drawn while orbiting: what a frame costs, which the machine's load hardly changes
   */
  orbit_cpu_ms_per_frame: number;
  moves_shown: number;
  points_shown: number;
}

interface InPage {
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
  performance: { now(): number };
  requestAnimationFrame(callback: () => void): number;
}

export async function measureViewer(
  browser: Browser,
  session: { origin: string; cookie: string },
  projectId: string,
): Promise<ViewerFigures> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([
    { name: "swarf_session", value: session.cookie, url: session.origin, httpOnly: true, sameSite: "Lax" },
  ]);
  const page = await context.newPage();
  try {
    await page.goto(`${session.origin}/projects/${projectId}`);
    await page.waitForFunction(
      () => {
        const canvas = (globalThis as unknown as InPage).document.querySelector("canvas.viewer-canvas");
        return canvas?.getAttribute("data-setup") === "0";
      },
      undefined,
      { timeout: 120_000, polling: "raf" },
    );
    // the frame show() asked for is drawn on the next animation frame
    const openMs = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          const browserSide = globalThis as unknown as InPage;
          browserSide.requestAnimationFrame(() =>
            browserSide.requestAnimationFrame(() => done(browserSide.performance.now())),
          );
        }),
    );
    const shown = await page.evaluate(() => {
      const canvas = (globalThis as unknown as InPage).document.querySelector("canvas.viewer-canvas");
      return {
        moves: Number(canvas?.getAttribute("data-moves") ?? 0),
        points: Number(canvas?.getAttribute("data-points") ?? 0),
      };
    });
    // the drag must land on the canvas: below the page's first screen until scrolled to
    await page.locator("canvas.viewer-canvas").scrollIntoViewIfNeeded();
    const box = await page.locator("canvas.viewer-canvas").boundingBox();
    if (!box) throw new Error("the canvas has no box");
    const frames = async () => Number((await page.locator("canvas.viewer-canvas").getAttribute("data-frames")) ?? 0);
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    const before = await frames();
    const cpuBefore = browserCpuMs();
    const started = performance.now();
    let events = 0;
    let step = 0;
    while (performance.now() - started < ORBIT_MS) {
      step += 1;
      const angle = step / 20;
      await page.mouse.move(cx + Math.cos(angle) * box.width * 0.3, cy + Math.sin(angle) * box.height * 0.2, {
        steps: 4,
      });
      events += 4;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = browserCpuMs() - cpuBefore;
    // the view writes its count of frames with each still frame: the one after letting go
    // counts the moving ones before it
    await page.mouse.up();
    await page.waitForFunction(
      (count) =>
        Number(
          (globalThis as unknown as InPage).document
            .querySelector("canvas.viewer-canvas")
            ?.getAttribute("data-frames") ?? 0,
        ) > count,
      before,
      { timeout: 30_000, polling: "raf" },
    );
    const drawn = (await frames()) - before - 1;
    return {
      open_ms: Math.round(openMs),
      orbit_fps: Math.round((drawn / seconds) * 10) / 10,
      orbit_events_per_s: Math.round(events / seconds),
      orbit_cpu_ms_per_frame: Math.round((cpuMs / drawn) * 10) / 10,
      moves_shown: shown.moves,
      points_shown: shown.points,
    };
  } finally {
    await context.close();
  }
}
