// The dev server's banner: `build.py serve` tags every page it sends with <meta name="course-dev-status">
// (where to read the build status, and which build the page belongs to); a static host sends no such
// tag, so there the banner never exists. The page shows a rebuild that runs, one that failed (with its
// errors), or that the site was rebuilt after the page was opened.

const POLL_MS = 1000;
const MAX_ERRORS = 8;

/** Watch the dev server's build status, if this page came from it. */
export function watchBuildStatus(strings) {
  const tag = document.querySelector("meta[name=course-dev-status]");
  if (!tag) return;
  const url = new URL(tag.content, location.href).href;
  const generation = Number(tag.dataset.generation);
  const banner = document.createElement("div");
  banner.className = "dev-banner";
  banner.setAttribute("role", "status");
  banner.hidden = true;
  document.body.prepend(banner);
  const look = async () => {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (response.ok) show(banner, await response.json(), generation, strings);
    } catch (error) {
      // the dev server is gone (stopped, or the page is offline): the page itself is still fine
    }
    setTimeout(look, POLL_MS);
  };
  look();
}

/** Fill the banner from a status {state, errors, generation}, or hide it when the page is current. */
function show(banner, status, generation, strings) {
  const failed = status.state === "failed";
  const text = status.state === "building" ? strings.dev_building : failed ? strings.dev_failed
    : status.generation !== generation ? strings.dev_stale : "";
  const errors = failed ? status.errors.slice(0, MAX_ERRORS) : [];
  if (failed && status.errors.length > MAX_ERRORS) errors.push("…");
  const key = text + "\n" + errors.join("\n");
  if (banner.dataset.shown === key) return; // unchanged: leave the DOM (and screen readers) alone
  banner.dataset.shown = key;
  banner.dataset.state = text ? status.state : "";
  banner.hidden = !text;
  const message = document.createElement("p");
  message.textContent = text;
  banner.replaceChildren(message);
  if (errors.length) {
    const list = document.createElement("pre");
    list.className = "dev-errors";
    list.textContent = errors.join("\n");
    banner.append(list);
  }
}
