"use strict";
// The live state of the table, pushed by the server as Server-Sent Events, and the table's screen drawn as
// text. Shared by the table page and the seat pages. The stream reconnects by itself: the browser retries a
// broken stream, this retries one the browser gave up on, and a stream silent past the server's pings (a
// table that restarted while a phone slept) is opened anew.

const Live = {
  QUIET_MS: 25000,  // the server pings every 10 s: this much silence is a dead connection
  RETRY_MS: 1000,

  // Follow `url`, calling `onState(state)` with each state. `check` (optional): a URL that answers 403 or 404
  // when the page may not follow the stream any more (a seat's code from a game that ended); then
  // `onRefused(message)` is called and nothing is retried.
  connect(url, onState, check, onRefused) {
    const status = document.getElementById("status");
    let source = null;
    let heard = Date.now();
    let retry = null;
    let refused = false;

    function mark(connected, text) {
      document.body.dataset.connected = connected ? "yes" : "no";
      status.textContent = text;
      status.classList.toggle("live", connected);
    }

    function open() {
      if (source !== null) source.close();
      heard = Date.now();
      source = new EventSource(url);
      source.onopen = () => { heard = Date.now(); mark(true, "live"); };
      source.onmessage = (event) => {
        heard = Date.now();
        mark(true, "live");
        onState(JSON.parse(event.data));
      };
      source.addEventListener("ping", () => { heard = Date.now(); });
      source.onerror = () => {
        mark(false, "reconnecting...");
        if (source.readyState === EventSource.CLOSED) later();
      };
    }

    function later() {
      clearTimeout(retry);
      retry = setTimeout(async () => {
        if (check) {
          try {
            const answer = await fetch(check, { cache: "no-store" });
            if (answer.status === 403 || answer.status === 404) {
              refused = true;
              source.close();
              mark(false, "refused");
              onRefused((await answer.text()).trim());
              return;
            }
          } catch (e) {
            // the table is still away: try the stream again
          }
        }
        open();
      }, Live.RETRY_MS);
    }

    setInterval(() => {
      if (!refused && Date.now() - heard > Live.QUIET_MS) {
        mark(false, "reconnecting...");
        open();
      }
    }, 5000);
    open();
  },

  // The table's screen as text in `holder`: the headline big, the title, the lines (the menu's choice
  // and a question highlighted), the footer. Text only: nothing the table sends is ever read as HTML.
  screen(holder, screen) {
    holder.replaceChildren();
    if (!screen) {
      holder.append(Live.el("div", "line", "(nothing on screen)"));
      return;
    }
    if (screen.headline) holder.append(Live.el("div", "headline", screen.headline));
    holder.append(Live.el("div", "title", screen.title));
    screen.lines.forEach((line, i) => {
      const chosen = i === screen.selected;
      const css = chosen ? "line chosen" : i === screen.marked ? "line marked" : "line";
      holder.append(Live.el("div", css, (chosen ? "> " : "") + line));
    });
    if (screen.footer) holder.append(Live.el("div", "footer", screen.footer));
  },

  // GET `url` as JSON; a refusal's one line goes in the element `messageId`, shown, and null comes back
  async json(url, messageId) {
    const answer = await fetch(url, { cache: "no-store" });
    if (answer.ok) return answer.json();
    const message = document.getElementById(messageId);
    message.hidden = false;
    message.textContent = (await answer.text()).trim();
    return null;
  },

  el(tag, css, text) {
    const node = document.createElement(tag);
    if (css) node.className = css;
    if (text !== undefined) node.textContent = text;
    return node;
  },
};
