// screens/admin.js: the admin page (placeholder while the admin API lands).
export const section = 'screen-admin';
export function enter() {
  document.getElementById(section).innerHTML = '<header class="bar"><h1 id="admin-h" tabindex="-1">Admin</h1></header>';
}
