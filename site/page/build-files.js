// Files a page loads after it opened (the editor), tagged with the page's build so that a newer deploy
// cannot answer them (the service worker refuses an earlier build's request with 409).

export class BuildFiles {
  constructor(assetsURL, build) {
    this.assetsURL = assetsURL;
    this.build = build;
    this.editorModule = null;
  }

  /** The URL of an asset at this page's build. */
  versioned(name) {
    return new URL(name + "?v=" + this.build, this.assetsURL).href;
  }

  /** The editor module, downloaded on first use; a failed download is tried again on the next call. */
  loadEditor() {
    if (!this.editorModule) {
      this.editorModule = import(this.versioned("editor.js")).catch((error) => {
        this.editorModule = null;
        throw error;
      });
    }
    return this.editorModule;
  }

  /** Whether the site has been rebuilt since this page was loaded. */
  async outdated() {
    try {
      return (await fetch(this.versioned("editor.js"), { cache: "no-store" })).status === 409;
    } catch (error) {
      return false;
    }
  }
}
