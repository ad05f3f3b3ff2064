// What surrounds a game (docs/social.md): resign, abort, rematch, chat, invitations.
// Like the tables, it only calls /api/v1/ and shows the server's `detail` when it refuses.
import { get, post } from "./api.js";
import { h } from "./svg.js";
import { t } from "./i18n.js";

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
    buttons.push(button(t("social.resign"), call("resign", t("social.resign_confirm"))));
    // Before every seat has moved one seat's call aborts; after, it takes every seat's vote: the
    // button says which, once the server has said.
    const abort = button(t("social.abort"), call("abort", t("social.abort_confirm")));
    get(`/games/${game.id}/abort/`).then((votes) => {
      if (!votes.alone) abort.textContent = t("social.vote_abort");
    }).catch(() => {});
    buttons.push(abort);
  }
  if (game.status === "finished" || game.status === "aborted") {
    buttons.push(button(t("social.rematch"), async () => {
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
  const input = h("input", { name: "chat", maxlength: 500, "aria-label": t("chat.message"), autocomplete: "off" });
  const seen = new Set();
  const show = (message) => {
    if (seen.has(message.id)) return;
    seen.add(message.id);
    list.append(h("li", { "data-message": message.id },
      h("strong", { translate: "no" }, message.username ?? t("chat.deleted")), ": ", message.text));
  };
  const reload = async () => {
    try { (await get(`/games/${game.id}/chat/?channel=${channel}&limit=100`)).forEach(show); } catch (error) { /* not readable now */ }
  };
  const form = h("form", { class: "chat-form" }, input, h("button", { type: "submit" }, t("chat.send")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    try { show(await post(`/games/${game.id}/chat/`, { channel, text: input.value })); input.value = ""; }
    catch (error) { onError(error); }
  });
  const node = h("section", { class: "chat", "aria-label": t(`chat.${channel}_label`) },
    h("h2", {}, channel === "players" ? t("chat.players") : t("chat.spectators")), list, form);
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
  return h("section", { "aria-label": t("invite.title") }, h("h2", {}, t("invite.title")),
    h("ul", { class: "invitations" }, mine.map((i) => h("li", { "data-invitation": i.id },
      `${t(i.rematch ? "invite.rematch" : "invite.game", { name: i.invited_by ?? t("game.someone"), title: titles[i.kind] || i.kind })} `,
      button(t("invite.accept"), answer(i, "accept")), " ",
      button(t("invite.decline"), answer(i, "decline"))))));
}

/** The create form's extra fields: private, and whom to invite. */
export function privacyFields() {
  return h("fieldset", { class: "privacy" }, h("legend", {}, t("privacy.who")),
    h("label", {}, h("input", { type: "checkbox", name: "private" }), ` ${t("privacy.private")}`),
    h("label", {}, ` ${t("privacy.invite")} `, h("input", { name: "invite", autocomplete: "off" })));
}

export function readPrivacy(form) {
  const invite = (form.querySelector("[name=invite]")?.value || "").split(",").map((s) => s.trim()).filter(Boolean);
  const priv = form.querySelector("[name=private]")?.checked || invite.length > 0;
  return priv ? { private: true, ...(invite.length ? { invite } : {}) } : {};
}
