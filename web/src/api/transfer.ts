/**
 * Files to and from the public API with the session: an upload through XMLHttpRequest (its
 * upload events give the progress bar), and a download of a file a POST answers (G-code, a
 * quote export), saved under the name the API's Content-Disposition gives. Both carry the
 * session's CSRF token and read refusals as client.ts's request does.
 */
import { ApiError, csrfHeader, refusal } from "./client.ts";

/** posts `file` as the multipart part "file"; onProgress gets 0..1 as the bytes go out */
export function uploadFile<T>(url: string, file: File, onProgress: (done: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    for (const [name, value] of Object.entries(csrfHeader("POST"))) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener("load", () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(JSON.parse(xhr.responseText) as T);
      } else reject(refusal(url, xhr.status, xhr.responseText));
    });
    xhr.addEventListener("error", () => reject(new ApiError(0, "network_error", "", {}, undefined)));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

/** the file name of a Content-Disposition header, if it names one */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (encoded?.[1]) return decodeURIComponent(encoded[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

/** fetches the file and hands it to the browser as a download */
export async function downloadFile(method: "GET" | "POST", url: string, fallbackName: string) {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: csrfHeader(method),
    });
  } catch {
    throw new ApiError(0, "network_error", "", {}, undefined);
  }
  if (!response.ok) throw refusal(url, response.status, await response.text());
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = fileNameOf(response.headers.get("Content-Disposition")) ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // the click has read the URL; let it go after the browser took the file
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
