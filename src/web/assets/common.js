// What every page shares: the session socket and small helpers. Plain ES modules, no build step.

/// Opens `/ws/<kind>` on this server. `onMessage` gets every JSON message; `ready` resolves once
/// open. Messages sent before then wait.
export function connect(kind, onMessage, url) {
  const address = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${kind}`;
  const socket = new WebSocket(address);
  const waiting = [];
  let open = false;
  const ready = new Promise((resolve, reject) => {
    socket.addEventListener("open", () => {
      open = true;
      for (const text of waiting.splice(0)) socket.send(text);
      resolve();
    });
    socket.addEventListener("error", reject);
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      console.error("not JSON from the server", event.data);
      return;
    }
    onMessage(message);
  });
  return {
    ready,
    raw: socket,
    send(message) {
      const text = JSON.stringify(message);
      if (open) socket.send(text);
      else waiting.push(text);
    },
    close() {
      socket.close();
    },
  };
}

/// `el("div", {class: "x"}, child, "text")`: a DOM element.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/// Milliseconds as `m:ss` (or `h:mm:ss`), tenths under ten seconds.
export function formatClock(ms) {
  ms = Math.max(0, Math.round(ms));
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (ms < 10000) return `0:0${s}.${Math.floor((ms % 1000) / 100)}`;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? h + ":" : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/// Offers `text` as a file download.
export function download(name, text, type = "text/plain") {
  const link = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

/// Square names: file letters a.. and rank numbers 1.., as the protocol writes them.
export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

export function parseSquare(name) {
  return { file: name.charCodeAt(0) - 97, rank: Number(name.slice(1)) - 1 };
}
