// companion serve: live updates on top of a page that works without this script.
// - every form is sent with fetch and the table's part of the page is replaced by the answer;
// - a face link of a roll of several dice (which only marks a die) is fetched the same way;
// - server-sent events bring every change made on another page (or at the terminal) within a second;
// - after the phone sleeps, or the server restarts, it reconnects by itself and shows its seat's table.
// Every address is relative: a seat's page lives under its own path (/s/SLUG/), the host's under /.
"use strict";
(function () {
  var table = document.getElementById("table");
  var live = document.getElementById("live");
  var body = document.body;
  var shown = 0;
  var source = null;
  var retry = null;

  // The address with the token stays out of the history once the cookie holds it.
  if (window.location.search.indexOf("token=") >= 0 && window.history && window.history.replaceState) {
    window.history.replaceState(null, "", window.location.pathname);
  }

  function version() {
    var state = document.getElementById("state");
    return state ? parseInt(state.getAttribute("data-version"), 10) || 0 : 0;
  }

  function say(text) {
    if (!text) { live.hidden = true; live.textContent = ""; return; }
    live.textContent = text;
    live.hidden = false;
  }

  function show(html, force) {
    var note = document.getElementById("note");
    var typed = note ? note.value : "";
    var focused = note && document.activeElement === note;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var state = holder.querySelector("#state");
    var next = state ? parseInt(state.getAttribute("data-version"), 10) || 0 : 0;
    if (!force && next < shown) { return; }
    shown = next;
    table.replaceChildren.apply(table, Array.prototype.slice.call(holder.childNodes));
    var again = document.getElementById("note");
    if (again && typed) { again.value = typed; if (focused) { again.focus(); } }
  }

  table.addEventListener("submit", function (event) {
    var form = event.target;
    event.preventDefault();
    var data = new URLSearchParams(new FormData(form, event.submitter || null));
    var buttons = form.querySelectorAll("button");
    Array.prototype.forEach.call(buttons, function (b) { b.disabled = true; });
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Companion": "fetch" }
    }).then(function (response) {
      var kind = response.headers.get("content-type") || "";
      if (kind.indexOf("application/json") < 0) { throw new Error("forbidden"); }
      return response.json();
    }).then(function (answer) {
      if (form.classList.contains("note") && answer.ok) {
        var note = document.getElementById("note");
        if (note) { note.value = ""; }
      }
      show(answer.html, true);
      say("");
    }).catch(function () {
      Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
      say(body.getAttribute("data-offline"));
      check();
    });
  });

  table.addEventListener("click", function (event) {
    var link = event.target.closest("a.face, a.again");
    if (!link) { return; }
    event.preventDefault();
    var query = link.getAttribute("href").split("?")[1] || "";
    fetch("part" + (query ? "?" + query : ""), { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (answer) { show(answer.html, true); })
      .catch(function () { window.location.href = link.getAttribute("href"); });
  });

  function connect() {
    if (source) { source.close(); }
    source = new EventSource("events");
    source.onmessage = function (event) {
      say("");
      var data = JSON.parse(event.data);
      if (data.version !== version()) { show(data.html, false); }
    };
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { check(); }
      else { say(body.getAttribute("data-offline")); }
    };
  }

  // The stream is gone (the server stopped, or answered 403 after a restart with a new token): ask
  // for ping twice a second until it is back, then reconnect: the stream's first event is the table.
  function check() {
    if (retry) { return; }
    retry = setTimeout(function () {
      retry = null;
      fetch("ping", { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        if (response.status === 204) { say(""); connect(); }
        else if (response.status === 403) { say(body.getAttribute("data-new-address")); check(); }
        else { say(body.getAttribute("data-offline")); check(); }
      }).catch(function () { say(body.getAttribute("data-offline")); check(); });
    }, 500);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      if (!source || source.readyState === EventSource.CLOSED) { connect(); }
      fetch("part", { credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (answer) { if (answer.version !== version()) { show(answer.html, true); } })
        .catch(function () { check(); });
    }
  });
  window.addEventListener("online", function () { connect(); });

  shown = version();
  connect();
})();
