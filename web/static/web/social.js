// What surrounds a game (docs/social.md): resign, abort, rematch, chat, invitations.
// Like the tables, it only calls /api/v1/ and shows the server's `detail` when it refuses.
import { get, post } from "./api.js";
import { h } from "./svg.js";

// Not `choiceButton`: these are no steps toward a move, so the tables' data-choice contract stays clean.
const button = (label, action) => h("button", { type: "button", class: "social", onclick: action }, label);

/** Buttons for a seat of an active game (resign, abort or vote to) and of an ended one (rematch). */
export function gameActions(game, { onError, onDone }) {
  if (game.your_seat === null) return null;
  const call = (path, question) => async () => {
    if (question && !window.confirm(question)) return;
    try { await post(`/games/${game.id}/${path}/`); } catch (error) { onError(error); }
    await onDone();
  };
  const buttons = [];
  if (game.status === "active") {
    buttons.push(button("Resign", call("resign", "Resign this game? The others play on.")));
    buttons.push(button("Abort (or vote to)", call("abort", "Abort this game? It will count for nobody.")));
  }
  if (game.status === "finished" || game.status === "aborted") {
    buttons.push(button("Rematch", async () => {
      try { const next = await post(`/games/${game.id}/rematch/`); location.hash = `#/games/${next.id}`; }
      catch (error) { onError(error); }
    }));
  }
  return buttons.length ? h("div", { class: "game-actions" }, buttons) : null;
}

/** The game's chat: your channel (players' for a seat, spectators' otherwise), newest last. The
 * text is always set as text, never as HTML. Returns { node, heard(message), reload() }. */
export function chatPanel(game, onError) {
  const channel = game.your_seat !== null ? "players" : "spectators";
  const list = h("ol", { class: "chat-messages", "aria-live": "polite" });
  const input = h("input", { name: "chat", maxlength: 500, "aria-label": "Message", autocomplete: "off" });
  const seen = new Set();
  const show = (message) => {
    if (seen.has(message.id)) return;
    seen.add(message.id);
    list.append(h("li", { "data-message": message.id },
      h("strong", {}, message.username ?? "(deleted account)"), ": ", message.text));
  };
  const reload = async () => {
    try { (await get(`/games/${game.id}/chat/?channel=${channel}&limit=100`)).forEach(show); } catch (error) { /* not readable now */ }
  };
  const form = h("form", { class: "chat-form" }, input, h("button", { type: "submit" }, "Send"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    try { show(await post(`/games/${game.id}/chat/`, { channel, text: input.value })); input.value = ""; }
    catch (error) { onError(error); }
  });
  const node = h("section", { class: "chat", "aria-label": `Chat (${channel})` },
    h("h2", {}, channel === "players" ? "Players' chat" : "Spectators' chat"), list, form);
  reload();
  return { node, heard: (message) => { if (message.channel === channel) show(message); }, reload };
}

/** The lobby's list of invitations waiting for me, with accept and decline. */
export async function invitationsSection(onError, titles = {}) {
  const mine = (await get("/invitations/")).filter((i) => i.status === "pending");
  if (!mine.length) return null;
  const answer = (invitation, how) => async () => {
    try {
      await post(`/invitations/${invitation.id}/${how}/`);
      location.hash = how === "accept" ? `#/games/${invitation.game}` : "#/";
      if (how !== "accept") window.dispatchEvent(new HashChangeEvent("hashchange"));
    } catch (error) { onError(error); }
  };
  return h("section", { "aria-label": "Invitations" }, h("h2", {}, "Invitations"),
    h("ul", { class: "invitations" }, mine.map((i) => h("li", { "data-invitation": i.id },
      `${i.invited_by ?? "someone"} invites you to ${i.rematch ? "a rematch of " : "a game of "}${titles[i.kind] || i.kind} `,
      button("Accept", answer(i, "accept")), " ",
      button("Decline", answer(i, "decline"))))));
}

/** The create form's extra fields: private, and whom to invite. */
export function privacyFields() {
  return h("fieldset", { class: "privacy" }, h("legend", {}, "Who may join"),
    h("label", {}, h("input", { type: "checkbox", name: "private" }), " private (invitation or link only)"),
    h("label", {}, " invite (usernames, comma-separated) ", h("input", { name: "invite", autocomplete: "off" })));
}

export function readPrivacy(form) {
  const invite = (form.querySelector("[name=invite]")?.value || "").split(",").map((s) => s.trim()).filter(Boolean);
  const priv = form.querySelector("[name=private]")?.checked || invite.length > 0;
  return priv ? { private: true, ...(invite.length ? { invite } : {}) } : {};
}
