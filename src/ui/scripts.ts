// The two small browser scripts of the UI, served by the mock as they are written here (plain
// ES2020, no build step). The pages work without them: every field shows, and the dashboard
// shows the state as of its last load.

/**
 * A form's show_if: a field (an element with data-show-if, a JSON object of field id -> answer)
 * shows while every named field's answer matches (a checkbox matches when that option is ticked);
 * a hidden field counts as unanswered, so conditions chain. Inputs of hidden fields are disabled,
 * so they are not sent, and the server ignores their answers too.
 */
export const SHOW_IF_SCRIPT = `'use strict';
(function () {
  var form = document.querySelector('form[data-perform]');
  if (!form) return;
  var fields = Array.prototype.slice.call(form.querySelectorAll('[data-field]'));
  var byId = {};
  fields.forEach(function (field) { byId[field.getAttribute('data-field')] = field; });
  function answerOf(id) {
    var field = byId[id];
    if (!field || field.hidden) return null;
    var inputs = Array.prototype.slice.call(field.querySelectorAll('input, textarea'));
    var checked = inputs.filter(function (input) { return (input.type === 'radio' || input.type === 'checkbox') && input.checked; })
      .map(function (input) { return input.value; });
    if (inputs.some(function (input) { return input.type === 'checkbox'; })) return checked;
    if (inputs.some(function (input) { return input.type === 'radio'; })) return checked.length ? checked[0] : null;
    var text = inputs.length ? inputs[0].value.trim() : '';
    return text === '' ? null : text;
  }
  function holds(conditions) {
    return Object.keys(conditions).every(function (id) {
      var answer = answerOf(id);
      return Array.isArray(answer) ? answer.indexOf(conditions[id]) !== -1 : answer === conditions[id];
    });
  }
  function apply() {
    // A field hidden in turn hides those that depend on it: settle in at most one pass per field.
    for (var pass = 0; pass <= fields.length; pass++) {
      var changed = false;
      fields.forEach(function (field) {
        var rule = field.getAttribute('data-show-if');
        if (!rule) return;
        var hide = !holds(JSON.parse(rule));
        if (field.hidden !== hide) {
          field.hidden = hide;
          changed = true;
          field.querySelectorAll('input, textarea, select').forEach(function (input) { input.disabled = hide; });
        }
      });
      if (!changed) break;
    }
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  apply();
})();
`

/**
 * The dashboard refreshes itself when the mock's state changes: every 2 seconds while the tab is
 * visible it asks the version endpoint (a few bytes) and reloads when the version moved. While
 * someone is filling in a form on the page it shows a notice with a button instead, so nothing
 * typed is lost. It stops after an hour without a reload.
 */
export const DASHBOARD_SCRIPT = `'use strict';
(function () {
  var root = document.querySelector('[data-version-url]');
  if (!root) return;
  var url = root.getAttribute('data-version-url');
  var seen = root.getAttribute('data-version');
  var notice = document.getElementById('refresh-notice');
  var editing = false;
  var polls = 0;
  var MAX_POLLS = 1800;
  document.addEventListener('input', function (event) {
    if (event.target && event.target.closest && event.target.closest('form')) editing = true;
  });
  function changed() {
    if (!editing) { location.reload(); return; }
    if (notice) notice.hidden = false;
  }
  function poll() {
    if (polls++ >= MAX_POLLS) return;
    if (document.visibilityState !== 'visible') { setTimeout(poll, 2000); return; }
    fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (body && body.version !== seen) { seen = body.version; changed(); }
        setTimeout(poll, 2000);
      }, function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 2000);
})();
`
