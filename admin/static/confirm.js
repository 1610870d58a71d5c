// Confirmation before destructive actions. The panel's Content-Security-
// Policy allows no inline script (an onsubmit="return confirm(…)" never
// runs, so one click deleted), so this file, loaded from 'self' by the
// layout, asks instead: a form, or the submit button used, carrying
// data-confirm="Delete this page?" submits only when the merchant
// confirms. The button's question wins over its form's (a form with Save
// and Delete asks only on Delete).
(function () {
  "use strict";
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement)) {
      return;
    }
    var button = ev.submitter;
    var question = (button && button.getAttribute("data-confirm")) || form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  }, true);
})();
