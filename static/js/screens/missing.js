// screens/missing.js: the screen of an address that names no screen (a
// mistyped or an old link): it says so, names what was asked for, and
// offers the ways back.

import { $ } from '../dom.js';

export const section = 'screen-missing';

export function enter(args) {
  const asked = `#/${args.join('/')}`;
  $('missing-what').textContent = asked;
  document.title = 'Not found · sokod';
}

export function leave() {
  document.title = 'sokod';
}
