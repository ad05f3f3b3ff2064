// Push notifications in the web client: a section of the settings page (#/settings), which
// subscribes this browser to Web Push through the service worker at /sw.js (scope "/") and
// unsubscribes it, and sets quiet hours. The server's side: /api/v1/push/ and
// docs/time-and-notifications.md.
import { api, get, post } from "./api.js";
import { h, fill } from "./svg.js";
import { t } from "./i18n.js";

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

// applicationServerKey: the VAPID public key, base64url, as bytes.
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function workerRegistration() {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  return registration;
}

export async function currentSubscription() {
  if (!supported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

export async function subscribe() {
  const { public_key: publicKey } = await get("/push/vapid-key/");
  if (!publicKey) throw new Error(t("push.no_key"));
  if (await Notification.requestPermission() !== "granted") {
    throw new Error(t("push.blocked"));
  }
  const registration = await workerRegistration();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: keyBytes(publicKey),
  });
  return post("/push/subscriptions/", subscription.toJSON());
}

export async function unsubscribe() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await post("/push/subscriptions/unsubscribe/", { endpoint: subscription.endpoint });
  } catch (error) {
    if (error.status !== 404) throw error;  // already gone there
  }
  await subscription.unsubscribe();
}

const zones = () => (Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : ["UTC"]);

/** The push part of the settings page (community.js's settingsPage hands it its slot): this
 * browser on or off, and quiet hours. */
export async function pushSection(slot, prefs, { say, showError }) {
  const status = h("p", { id: "push-status" });
  const button = h("button", { type: "button", id: "push-toggle" });
  async function draw() {
    if (!supported()) {
      fill(status, t("push.unsupported"));
      button.hidden = true;
      return;
    }
    const subscribed = Boolean(await currentSubscription());
    fill(status, subscribed ? t("push.on") : t("push.off"));
    fill(button, subscribed ? t("push.turn_off") : t("push.turn_on"));
    button.dataset.subscribed = String(subscribed);
  }
  button.onclick = async () => {
    button.disabled = true;
    try {
      if (button.dataset.subscribed === "true") await unsubscribe(); else await subscribe();
      say(button.dataset.subscribed === "true" ? t("push.turned_off") : t("push.turned_on"), "info");
    } catch (error) { showError(error); }
    button.disabled = false;
    await draw();
  };
  const quiet = prefs.quiet_hours;
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const start = h("input", { type: "time", name: "start", value: quiet?.start || "22:00", required: true });
  const end = h("input", { type: "time", name: "end", value: quiet?.end || "08:00", required: true });
  const chosen = quiet?.tz || local;
  const names = zones();
  if (!names.includes(chosen)) names.unshift(chosen);  // "UTC" is not in every browser's list
  const tz = h("select", { name: "tz" }, names.map((name) =>
    h("option", { value: name, selected: name === chosen }, name)));
  const on = h("input", { type: "checkbox", name: "on", checked: Boolean(quiet) });
  const form = h("form", { id: "quiet-hours", "aria-label": t("quiet.title") },
    h("fieldset", {}, h("legend", {}, t("quiet.title")),
      h("label", {}, on, ` ${t("quiet.on")}`),
      h("label", {}, `${t("quiet.from")} `, start), h("label", {}, `${t("quiet.to")} `, end), h("label", {}, `${t("quiet.zone")} `, tz),
      h("button", { type: "submit" }, t("quiet.save"))));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const body = { quiet_hours: on.checked ? { start: start.value, end: end.value, tz: tz.value } : null };
    try { await api("/accounts/preferences/", { method: "PUT", body }); say(t("quiet.saved"), "info"); }
    catch (error) { showError(error); }
  };
  fill(slot, h("h3", {}, t("push.title")), status, button, h("p", { class: "help" }, t("push.help")), form);
  await draw();
}
