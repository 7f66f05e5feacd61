// Attached images' bytes, as data: URLs from the backend (the page's CSP allows `img-src 'self'
// data:` only: never a file: URL). The last few are kept, as they can weigh megabytes each.

import { AttachmentService } from "../../../bindings";

const KEPT = 24;
const cache = new Map<string, Promise<string>>();

/** The image's data: URL; rejects when the file is gone or is no longer that image. */
export function imageUrl(channel: string, attachmentId: string): Promise<string> {
  const key = `${channel}/${attachmentId}`;
  let found = cache.get(key);
  if (found) {
    cache.delete(key); // most recently used last
  } else {
    found = AttachmentService.AttachmentData(channel, attachmentId);
    found.catch(() => cache.delete(key)); // a failure is asked again next time
  }
  cache.set(key, found);
  while (cache.size > KEPT) cache.delete(cache.keys().next().value as string);
  return found;
}
