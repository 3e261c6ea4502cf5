/*
 * convmem chat widget: plain JavaScript, no framework, no build step.
 *
 * Embed with one tag (docs/api.md is the contract it speaks):
 *
 *   <script src="https://cdn.example.com/convmem-widget.js"
 *           data-api="https://abc123.execute-api.eu-west-1.amazonaws.com" defer></script>
 *
 * Attributes (all optional):
 *   data-api        base URL of the convmem API (default: the origin the script came from)
 *   data-token      a token the host site minted with POST /v1/tokens for its logged-in customer,
 *                   so that person is the same user on the widget and on the API
 *   data-mount      CSS selector of an element to render into (default: a floating panel)
 *   data-title      heading of the panel (default "Chat")
 *   data-autostart  "false": do not start; call ConvmemWidget.init({...}) yourself
 *
 * Before the tag, `window.ConvmemWidgetConfig = {tokenProvider: async () => "<token>"}` lets
 * the widget ask the host for a fresh token when one is missing or expired (401).
 *
 * Without a host token the widget is an anonymous visitor: it gets a token with
 * POST /v1/visitors. Token and current session id stay in localStorage (one session per
 * visitor); a reload shows the transcript; "New conversation" starts a new session id.
 *
 * Events (bubbling from the widget's element, so window and document listeners get them):
 *   convmem:ready       {userId, sessionId}            the transcript is shown
 *   convmem:turn        {sessionId, turnId, reply, visitorSeq, agentSeq, context, elapsedMs}
 *   convmem:session     {userId, sessionId}            a new conversation started
 *   convmem:error       {status, code, message}
 */
(function () {
  "use strict";

  var CHANNEL = "web";
  var PAGE_LIMIT = 100;
  var MAX_PAGES = 100;
  var REQUEST_TIMEOUT_MS = 30000;
  var IN_PROGRESS_RETRIES = 10;
  var TOKEN_MARGIN_S = 60;

  var CSS = [
    ":host{all:initial;display:block;box-sizing:border-box;",
    "font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans KR','NanumGothic','NanumBarunGothic',",
    "'Apple SD Gothic Neo','Malgun Gothic',sans-serif,'Apple Color Emoji','Segoe UI Emoji','Noto Color Emoji';",
    "font-size:16px;line-height:1.45;color:#1d2433}",
    ":host(:not([data-floating])){height:100%}",
    ":host([data-floating]){position:fixed;right:16px;bottom:16px;z-index:2147483000;",
    "width:min(380px,calc(100vw - 16px));height:min(560px,calc(100vh - 32px))}",
    "@media (max-width:420px){:host([data-floating]){right:8px;bottom:8px}}",
    "*,*::before,*::after{box-sizing:border-box}",
    ".panel{display:flex;flex-direction:column;height:100%;min-height:320px;background:#fff;",
    "border:1px solid #c9cfdb;border-radius:12px;overflow:hidden;box-shadow:0 4px 18px rgba(20,30,60,.12)}",
    "header{display:flex;align-items:center;gap:8px;padding:10px 12px;background:#24407a;color:#fff}",
    "h2{flex:1;margin:0;font-size:1.05em;font-weight:600;min-width:0;overflow-wrap:anywhere}",
    "button{font:inherit;cursor:pointer;border-radius:8px;border:1px solid transparent;padding:6px 12px;min-height:36px}",
    "button:focus-visible,textarea:focus-visible{outline:3px solid #f5b700;outline-offset:2px}",
    "button:disabled{cursor:not-allowed;opacity:.55}",
    ".new{background:transparent;color:#fff;border-color:rgba(255,255,255,.7);font-size:.9em;white-space:nowrap}",
    ".new:hover:not(:disabled){background:rgba(255,255,255,.15)}",
    ".log{flex:1;margin:0;padding:12px;list-style:none;overflow-y:auto;display:flex;flex-direction:column;gap:8px;background:#f5f7fb}",
    ".empty{margin:auto;color:#5b6475;text-align:center;font-size:.95em}",
    ".msg{max-width:85%;padding:8px 12px;border-radius:14px;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word}",
    ".msg.visitor{align-self:flex-end;background:#24407a;color:#fff;border-bottom-right-radius:4px}",
    ".msg.agent{align-self:flex-start;background:#fff;border:1px solid #dde2ec;border-bottom-left-radius:4px}",
    ".msg.pending{opacity:.75}",
    ".note{align-self:center;color:#5b6475;font-size:.88em;text-align:center}",
    ".msg.failed{background:#fff;color:#8a1c1c;border:1px dashed #c0392b}",
    ".sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}",
    ".typing{padding:4px 16px 6px;color:#5b6475;font-size:.9em;background:#f5f7fb}",
    ".typing[hidden]{display:none}",
    ".dot{display:inline-block;width:6px;height:6px;margin:0 2px;border-radius:50%;background:#7a8499;animation:cmw-b 1.2s infinite ease-in-out}",
    ".dot:nth-child(2){animation-delay:.15s}.dot:nth-child(3){animation-delay:.3s}",
    "@keyframes cmw-b{0%,80%,100%{transform:translateY(0);opacity:.5}40%{transform:translateY(-4px);opacity:1}}",
    "@media (prefers-reduced-motion:reduce){.dot{animation:none}}",
    ".error{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0;padding:8px 12px;background:#fdecea;color:#8a1c1c;",
    "border-top:1px solid #f3b8b0;font-size:.92em}",
    ".error[hidden]{display:none}",
    ".error span{flex:1 1 12em;min-width:0;overflow-wrap:anywhere}",
    ".retry{background:#8a1c1c;color:#fff}",
    "form{display:flex;gap:8px;align-items:flex-end;padding:10px;border-top:1px solid #dde2ec;background:#fff}",
    "textarea{flex:1;min-width:0;resize:none;font:inherit;padding:8px 10px;border:1px solid #aab3c5;border-radius:8px;",
    "max-height:9em;min-height:2.6em;color:inherit;background:#fff}",
    ".send{background:#24407a;color:#fff}",
    ".send:hover:not(:disabled){background:#1b3160}"
  ].join("");

  // ------------------------------------------------------------------ helpers

  function randomHex(bytes) {
    var buf = new Uint8Array(bytes);
    (window.crypto || window.msCrypto).getRandomValues(buf);
    return Array.prototype.map.call(buf, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  var madeSessionIds = {};
  function newSessionId() {
    var id = "web-" + randomHex(12);
    madeSessionIds[id] = true;
    return id;
  }
  function newTurnId() { return "t-" + randomHex(12); }

  /** The claims of a convmem token ({sub, exp}), read without verifying (the API verifies). */
  function tokenClaims(token) {
    try {
      var body = String(token).split(".")[0].replace(/-/g, "+").replace(/_/g, "/");
      while (body.length % 4) body += "=";
      var bin = atob(body);
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      var claims = JSON.parse(new TextDecoder().decode(bytes));
      if (typeof claims.sub !== "string") return null;
      return { sub: claims.sub, exp: Number(claims.exp) || 0 };
    } catch (e) {
      return null;
    }
  }

  function nowSeconds() { return Date.now() / 1000; }

  function memoryStorage() {
    var data = {};
    return {
      getItem: function (k) { return Object.prototype.hasOwnProperty.call(data, k) ? data[k] : null; },
      setItem: function (k, v) { data[k] = String(v); },
      removeItem: function (k) { delete data[k]; }
    };
  }

  function pickStorage() {
    try {
      var s = window.localStorage;
      s.setItem("convmem:probe", "1");
      s.removeItem("convmem:probe");
      return s;
    } catch (e) {  // blocked storage (privacy mode): the widget still works for this page view
      return memoryStorage();
    }
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    }
    if (text != null) node.textContent = text;
    return node;
  }

  /** An HTTP error from the API, with the status and the {error:{code,message}} body. */
  function ApiError(status, code, message) {
    this.status = status;
    this.code = code;
    this.message = message;
  }

  /** The panel's wording of a 413, with the numbers the API's message gives. */
  function tooLongText(message) {
    var m = /is (\d+) tokens.*at most (\d+) fit \((\d+) too many\)/.exec(message || "");
    if (m) return "Message too long: " + m[1] + " tokens, at most " + m[2] + " fit (" + m[3] + " too many). Shorten it and send again.";
    m = /is (\d+) bytes; the limit is (\d+)/.exec(message || "");
    if (m) return "Message too long: " + m[1] + " bytes, the limit is " + m[2] + ". Shorten it and send again.";
    return "Message too long. " + (message || "");
  }

  // ------------------------------------------------------------------ the widget

  function Widget(options) {
    this.options = options;
    this.api = String(options.api).replace(/\/+$/, "");
    this.storage = pickStorage();
    this.storageKey = "convmem:v1:" + this.api;
    this.tokenProvider = typeof options.tokenProvider === "function" ? options.tokenProvider : null;
    this.hostToken = options.token || null;
    this.busy = false;
    this.lastContext = null;
    this.firstReplyMarked = false;
    this.identity = null;  // {userId, token, expiresAt, sessionId, hosted}
    this.renewing = null;
  }

  Widget.prototype.load = function () {
    try {
      var raw = this.storage.getItem(this.storageKey);
      var data = raw ? JSON.parse(raw) : null;
      return data && typeof data.token === "string" && typeof data.sessionId === "string" ? data : null;
    } catch (e) {
      return null;
    }
  };

  Widget.prototype.save = function () {
    try {
      this.storage.setItem(this.storageKey, JSON.stringify(this.identity));
    } catch (e) { /* full or blocked: the page keeps working */ }
  };

  // --- rendering

  Widget.prototype.render = function (mount) {
    var host = el("div", { className: "convmem-widget", "data-state": "starting" });
    if (!mount) host.setAttribute("data-floating", "");
    var root = host.attachShadow ? host.attachShadow({ mode: "open" }) : host;
    var style = el("style");
    style.textContent = CSS;
    root.appendChild(style);

    var panel = el("section", { className: "panel", "aria-label": this.options.title || "Chat" });
    var header = el("header");
    header.appendChild(el("h2", {}, this.options.title || "Chat"));
    this.newButton = el("button", { type: "button", className: "new" }, "New conversation");
    header.appendChild(this.newButton);
    panel.appendChild(header);

    this.log = el("ol", { className: "log", role: "log", "aria-live": "polite", "aria-relevant": "additions",
                          "aria-label": "Conversation", tabindex: "0" });
    panel.appendChild(this.log);

    this.typing = el("div", { className: "typing", role: "status" });
    this.typing.hidden = true;
    this.typing.appendChild(el("span", {}, "Agent is typing "));
    for (var i = 0; i < 3; i++) this.typing.appendChild(el("span", { className: "dot", "aria-hidden": "true" }));
    panel.appendChild(this.typing);

    this.errorBox = el("div", { className: "error", role: "alert" });
    this.errorBox.hidden = true;
    panel.appendChild(this.errorBox);

    var form = el("form", { "aria-label": "Send a message" });
    this.input = el("textarea", { rows: "1", "aria-label": "Message", placeholder: "Type a message…",
                                  autocomplete: "off", enterkeyhint: "send" });
    this.sendButton = el("button", { type: "submit", className: "send" }, "Send");
    form.appendChild(this.input);
    form.appendChild(this.sendButton);
    panel.appendChild(form);
    root.appendChild(panel);

    var self = this;
    form.addEventListener("submit", function (e) { e.preventDefault(); self.sendFromInput(); });
    this.input.addEventListener("keydown", function (e) {
      // Enter sends; Shift+Enter is a new line; Enter that ends an IME composition (Korean) is not a send.
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        self.sendFromInput();
      }
    });
    this.input.addEventListener("input", function () { self.autosize(); });
    this.newButton.addEventListener("click", function () { self.newConversation(); });

    if (mount) mount.appendChild(host);
    else document.body.appendChild(host);
    this.host = host;
    this.setBusy(true);
    return host;
  };

  Widget.prototype.autosize = function () {
    this.input.style.height = "auto";
    this.input.style.height = Math.min(this.input.scrollHeight + 2, 200) + "px";
  };

  Widget.prototype.setState = function (state) { this.host.setAttribute("data-state", state); };

  Widget.prototype.setBusy = function (busy) {
    this.busy = busy;
    this.sendButton.disabled = busy;
    this.newButton.disabled = busy;
  };

  Widget.prototype.showTyping = function (on) { this.typing.hidden = !on; };

  Widget.prototype.emit = function (name, detail) {
    this.host.dispatchEvent(new CustomEvent(name, { detail: detail, bubbles: true, composed: true }));
  };

  Widget.prototype.clearLog = function (emptyText) {
    while (this.log.firstChild) this.log.removeChild(this.log.firstChild);
    this.log.appendChild(el("li", { className: "empty" }, emptyText || "No messages yet. Say hello!"));
  };

  Widget.prototype.addMessage = function (role, text, extra) {
    var empty = this.log.querySelector(".empty");
    if (empty) this.log.removeChild(empty);
    var item = el("li", { className: "msg " + role, "data-role": role });
    item.appendChild(el("span", { className: "sr" }, role === "visitor" ? "You: " : "Agent: "));
    item.appendChild(el("span", { className: "text" }, text));
    if (extra && extra.seq != null) item.setAttribute("data-seq", String(extra.seq));
    if (extra && extra.at) item.title = extra.at;
    this.log.appendChild(item);
    this.log.scrollTop = this.log.scrollHeight;
    return item;
  };

  Widget.prototype.showError = function (text, retry) {
    var box = this.errorBox;
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(el("span", {}, text));
    if (retry) {
      var button = el("button", { type: "button", className: "retry" }, "Retry");
      button.addEventListener("click", function () { retry(); });
      box.appendChild(button);
    }
    box.hidden = false;
    if (retry) box.querySelector(".retry").focus();
  };

  Widget.prototype.clearError = function () {
    this.errorBox.hidden = true;
    while (this.errorBox.firstChild) this.errorBox.removeChild(this.errorBox.firstChild);
  };

  // --- HTTP

  Widget.prototype.fetchJson = function (method, path, body, token) {
    var headers = { "accept": "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers["authorization"] = "Bearer " + token;
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, REQUEST_TIMEOUT_MS) : null;
    return fetch(this.api + path, {
      method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller ? controller.signal : undefined, credentials: "omit", cache: "no-store"
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (response.ok) return data;
        var err = (data && data.error) || {};
        throw new ApiError(response.status, err.code || "http_" + response.status,
                           err.message || (data && data.message) || response.statusText || "Request failed");
      });
    }, function () {
      throw new ApiError(0, "network", "The service cannot be reached.");
    }).finally(function () { if (timer) clearTimeout(timer); });
  };

  /** A call as the current identity; on 401, renew the identity once and call again. */
  Widget.prototype.authed = function (method, pathOf, body) {
    var self = this;
    return this.ensureIdentity().then(function () {
      return self.fetchJson(method, pathOf(self.identity), body, self.identity.token);
    }).catch(function (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      return self.renewIdentity().then(function () {
        return self.fetchJson(method, pathOf(self.identity), body, self.identity.token);
      });
    });
  };

  /** A GET of an API path as the widget's user (for the host page, e.g. /v1/me/facts). */
  Widget.prototype.apiGet = function (path) {
    return this.authed("GET", function () { return path; });
  };

  // --- identity: a host token, or an anonymous visitor token

  Widget.prototype.adopt = function (token, hosted) {
    var claims = tokenClaims(token);
    var userId = claims ? claims.sub : null;
    var current = this.identity || this.load();
    var sameUser = current && (userId ? current.userId === userId : current.token === token);
    this.identity = {
      userId: userId,
      token: token,
      expiresAt: claims ? claims.exp : 0,
      sessionId: sameUser ? current.sessionId : newSessionId(),
      hosted: hosted
    };
    this.save();
    return !sameUser;
  };

  Widget.prototype.usable = function (identity) {
    return identity && (!identity.expiresAt || identity.expiresAt - TOKEN_MARGIN_S > nowSeconds());
  };

  /** The identity to call with: the host's token, the stored anonymous visitor, or a new one. */
  Widget.prototype.ensureIdentity = function () {
    if (this.usable(this.identity)) return Promise.resolve(this.identity);
    if (this.hostToken) {
      var token = this.hostToken;
      this.hostToken = null;  // used once; when it expires the tokenProvider (if any) gives the next
      this.adopt(token, true);
      return Promise.resolve(this.identity);
    }
    if (!this.identity && !this.tokenProvider) {
      var stored = this.load();
      // A stored customer token is not reused by an anonymous page (the customer may have signed out).
      if (stored && !stored.hosted && this.usable(stored)) {
        this.identity = stored;
        return Promise.resolve(stored);
      }
    }
    return this.renewIdentity();
  };

  /** A fresh token: from the host's tokenProvider, or a new anonymous visitor. A new visitor is
   * a new user, so it gets a new session too: the old one belongs to the old visitor. One renewal
   * runs at a time (a turn and a page's GET may both meet the 401). */
  Widget.prototype.renewIdentity = function () {
    var self = this;
    if (this.renewing) return this.renewing;
    var before = this.identity;
    var renewal;
    if (this.tokenProvider) {
      renewal = Promise.resolve(this.tokenProvider()).then(function (token) {
        if (!token) throw new ApiError(401, "signed_out", "Your sign-in has expired. Reload the page to continue.");
        if (self.adopt(String(token), true) && before) self.onUserChanged();
        return self.identity;
      });
    } else if (before && before.hosted) {
      renewal = Promise.reject(new ApiError(401, "signed_out", "Your sign-in has expired. Reload the page to continue."));
    } else {
      renewal = this.fetchJson("POST", "/v1/visitors").then(function (issued) {
        self.identity = {
          userId: issued.userId, token: issued.token,
          expiresAt: Date.parse(issued.expiresAt) / 1000 || (tokenClaims(issued.token) || {}).exp || 0,
          sessionId: newSessionId(), hosted: false
        };
        self.save();
        if (before) self.onUserChanged();
        return self.identity;
      });
    }
    this.renewing = renewal.finally(function () { self.renewing = null; });
    return this.renewing;
  };

  /** Mid-page, the widget became another user: the old transcript is not theirs to show. */
  Widget.prototype.onUserChanged = function () {
    var pending = Array.prototype.slice.call(this.log.querySelectorAll(".msg.pending"));
    this.clearLog();
    this.log.removeChild(this.log.querySelector(".empty"));
    this.log.appendChild(el("li", { className: "note" }, "Your earlier visit has expired, so this is a new conversation."));
    for (var i = 0; i < pending.length; i++) this.log.appendChild(pending[i]);
    this.emit("convmem:session", { userId: this.identity.userId, sessionId: this.identity.sessionId });
  };

  // --- transcript

  Widget.prototype.loadTranscript = function () {
    var self = this;
    var messages = [];
    if (this.identity && madeSessionIds[this.identity.sessionId]) {
      this.clearLog();  // a session id made on this page has no messages yet: nothing to fetch
      return Promise.resolve([]);
    }
    function page(after, n) {
      return self.authed("GET", function (id) {
        return "/v1/sessions/" + encodeURIComponent(id.sessionId) + "/messages?after=" + after + "&limit=" + PAGE_LIMIT;
      }).then(function (data) {
        messages = messages.concat(data.messages || []);
        if (data.next != null && data.next > after && n < MAX_PAGES) return page(data.next, n + 1);
        return messages;
      }, function (err) {
        if (err instanceof ApiError && err.status === 404) return messages;  // no turn yet in this session
        throw err;
      });
    }
    return page(0, 1).then(function (all) {
      self.clearLog();
      all.forEach(function (m) { self.addMessage(m.role === "visitor" ? "visitor" : "agent", m.text, m); });
      return all;
    });
  };

  // --- turns

  Widget.prototype.sendFromInput = function () {
    if (this.busy) return;
    var text = this.input.value;
    if (!text.trim()) return;
    this.input.value = "";
    this.autosize();
    this.send(text);
  };

  /** Send one visitor message as a turn; resolves with the turn response (or null on error). */
  Widget.prototype.send = function (text) {
    if (this.busy) return Promise.resolve(null);
    var turn = { message: String(text), channel: CHANNEL, clientTurnId: newTurnId() };
    var bubble = this.addMessage("visitor", turn.message);
    bubble.classList.add("pending");
    return this.runTurn(turn, bubble);
  };

  Widget.prototype.runTurn = function (turn, bubble) {
    var self = this;
    var started = performance.now();
    this.clearError();
    this.setBusy(true);
    this.setState("busy");
    this.showTyping(true);
    bubble.classList.remove("failed");
    bubble.classList.add("pending");
    function attempt(left) {
      return self.authed("POST", function (id) {
        return "/v1/sessions/" + encodeURIComponent(id.sessionId) + "/turns";
      }, turn).catch(function (err) {
        // 409: this clientTurnId is still running (an earlier attempt): wait for its answer.
        if (err instanceof ApiError && err.status === 409 && left > 0) {
          return new Promise(function (r) { setTimeout(r, 1000); }).then(function () { return attempt(left - 1); });
        }
        throw err;
      });
    }
    return attempt(IN_PROGRESS_RETRIES).then(function (result) {
      if (!bubble.isConnected) self.log.appendChild(bubble);  // the log was reset by a new identity
      bubble.classList.remove("pending");
      bubble.setAttribute("data-seq", String(result.visitorSeq));
      self.addMessage("agent", result.reply, { seq: result.agentSeq });
      if (!self.firstReplyMarked && performance.mark) {
        self.firstReplyMarked = true;
        performance.mark("convmem:first-reply");
      }
      self.lastContext = result.context;
      self.emit("convmem:turn", {
        userId: self.identity.userId, sessionId: result.sessionId, turnId: result.turnId, reply: result.reply,
        visitorSeq: result.visitorSeq, agentSeq: result.agentSeq, context: result.context,
        elapsedMs: Math.round(performance.now() - started)
      });
      self.finishTurn("ready");
      return result;
    }, function (err) {
      self.finishTurn("error");
      self.turnFailed(err, turn, bubble);
      return null;
    });
  };

  Widget.prototype.finishTurn = function (state) {
    this.showTyping(false);
    this.setBusy(false);
    this.setState(state);
    this.input.focus();
  };

  Widget.prototype.turnFailed = function (err, turn, bubble) {
    var self = this;
    var status = err instanceof ApiError ? err.status : 0;
    var message = err instanceof ApiError ? err.message : String(err && err.message || err);
    this.emit("convmem:error", { status: status, code: err && err.code, message: message });
    if (status === 413 || status === 400) {
      // Nothing was written: take the message back into the box so it can be shortened.
      if (bubble.parentNode) bubble.parentNode.removeChild(bubble);
      if (!this.log.querySelector(".msg")) this.clearLog();
      if (!this.input.value) { this.input.value = turn.message; this.autosize(); }
      this.showError(status === 413 ? tooLongText(message) : message);
      return;
    }
    bubble.classList.remove("pending");
    bubble.classList.add("failed");
    if (status === 401) { this.showError(message); return; }
    var why = status === 0 ? "Could not reach the service." :
              status === 429 ? "Too many messages right now." :
              status >= 500 ? "Something went wrong on our side (" + status + ")." : message;
    // The same clientTurnId again: a turn that did commit answers as before, never twice.
    this.showError(why + " Your message was not answered yet.", function () { self.runTurn(turn, bubble); });
  };

  Widget.prototype.newConversation = function () {
    if (this.busy || !this.identity) return;
    this.identity.sessionId = newSessionId();
    this.save();
    this.lastContext = null;
    this.clearError();
    this.clearLog("New conversation. What can we help with?");
    this.setState("ready");
    this.emit("convmem:session", { userId: this.identity.userId, sessionId: this.identity.sessionId });
    this.input.focus();
  };

  /** Use a token the host minted (POST /v1/tokens): another user starts their own session. */
  Widget.prototype.setToken = function (token) {
    var self = this;
    if (this.adopt(String(token), true)) {
      this.setBusy(true);
      return this.loadTranscript().then(function () {
        self.setBusy(false);
        self.setState("ready");
        self.emit("convmem:session", { userId: self.identity.userId, sessionId: self.identity.sessionId });
      });
    }
    return Promise.resolve();
  };

  Widget.prototype.start = function () {
    var self = this;
    var mount = this.options.mount;
    if (typeof mount === "string") mount = document.querySelector(mount);
    this.render(mount || null);
    this.clearLog("Loading…");
    return this.ensureIdentity().then(function () {
      return self.loadTranscript();
    }).then(function () {
      self.setBusy(false);
      self.setState("ready");
      self.emit("convmem:ready", { userId: self.identity.userId, sessionId: self.identity.sessionId });
    }).catch(function (err) {
      self.setBusy(false);
      self.setState("error");
      self.clearLog();
      var message = err instanceof ApiError ? err.message : String(err);
      self.emit("convmem:error", { status: err && err.status, code: err && err.code, message: message });
      self.showError("Chat is unavailable: " + message, function () {
        self.clearError();
        self.host.parentNode.removeChild(self.host);
        self.start();
      });
    });
  };

  // ------------------------------------------------------------------ public API and auto start

  var script = document.currentScript;
  var api = {
    instance: null,
    /** Start a widget: {api, token, tokenProvider, mount, title}. */
    init: function (options) {
      var base = (script && script.src) || window.location.href;
      var opts = Object.assign({}, options || {});
      opts.api = new URL(opts.api || "/", base).href;
      var widget = new Widget(opts);
      api.instance = widget;
      widget.started = widget.start();
      return widget;
    },
    setToken: function (token) { return api.instance && api.instance.setToken(token); },
    newConversation: function () { return api.instance && api.instance.newConversation(); },
    send: function (text) { return api.instance && api.instance.send(text); },
    get lastContext() { return api.instance ? api.instance.lastContext : null; }
  };
  window.ConvmemWidget = api;

  if (script && script.getAttribute("data-autostart") !== "false") {
    var config = window.ConvmemWidgetConfig || {};
    var options = {
      api: script.getAttribute("data-api") || config.api,
      token: script.getAttribute("data-token") || config.token,
      tokenProvider: config.tokenProvider,
      mount: script.getAttribute("data-mount") || config.mount,
      title: script.getAttribute("data-title") || config.title
    };
    var go = function () { api.init(options); };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go);
    else go();
  }
})();
