// lazy.js: screens that load their module and style sheet the first time
// they open (the editor and the admin page), so the game's first load
// carries none of them. The router sees an ordinary screen.

function loadCss(href) {
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

/** A router screen for `section` whose module comes from load() (a dynamic
 * import) and whose styles from the sheet `css`. */
export function lazyScreen(section, load, css) {
  let mod = null, loading = null;
  const get = () => {
    loading ??= Promise.all([load(), css ? loadCss(css) : null]).then(([m]) => (mod = m), (e) => {
      loading = null; // offline, say: try again next time
      throw e;
    });
    return loading;
  };
  return {
    section,
    focusHeading: false,
    async enter(args, fresh) {
      const m = await get();
      if (!document.getElementById(section).hidden) m.enter(args, fresh);
    },
    leave: () => mod?.leave?.(),
    redraw: () => mod?.redraw?.(),
  };
}
