// The browser's one live connection, shared by all its tabs (live.js): each tab is a port.
import { Hub } from "./live.js";

const ports = new Map();
let tabs = 0;
const hub = new Hub((tab, message) => {
  if (tab === null) ports.forEach((port) => port.postMessage(message));
  else ports.get(tab)?.postMessage(message);
});

onconnect = (e) => {
  const port = e.ports[0];
  const tab = ++tabs;
  ports.set(tab, port);
  port.onmessage = (m) => {
    hub.receive(tab, m.data);
    if (m.data.t === "bye") ports.delete(tab);
  };
  port.start();
};
