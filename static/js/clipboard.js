// clipboard.js: copying a text (a solution's LURD, a room's link) for the
// player, with a toast that says whether it worked.

import { toast } from './a11y.js';

/** Copies text to the clipboard; resolves to true once it is there. Where
 * the Clipboard API is refused (an insecure origin, no permission), a
 * selected hidden text area and the copy command are tried instead. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.append(area);
    area.select();
    let done;
    try {
      done = document.execCommand('copy');
    } catch {
      done = false;
    }
    area.remove();
    return done;
  }
}

/** Copies text and tells the player: `what` names it ("LURD", "Link"). */
export async function copyWithToast(text, what) {
  const done = await copyText(text);
  toast(done ? `${what} copied` : `${what} could not be copied`, done ? 'info' : 'warn');
  return done;
}
