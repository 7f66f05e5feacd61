// What the main area shows. A panel with unsaved work (settings) installs a guard that may hold a
// navigation back, e.g. by asking whether to discard its changes.

export type View =
  | { kind: "agents"; focus?: string }
  | { kind: "settings" }
  | { kind: "inbox" }
  // `at`: a message to open the conversation at and highlight (search, links, notifications).
  | { kind: "channel"; id: string; at?: string };

type Guard = () => Promise<boolean>;

class Navigation {
  view = $state<View>({ kind: "agents" });
  #guard: Guard | null = null;

  /** Shows `next` unless the current panel's guard says no; resolves to whether it moved. */
  async go(next: View): Promise<boolean> {
    if (this.#guard && !sameView(this.view, next) && !(await this.#guard())) return false;
    this.view = next;
    return true;
  }

  /** Installs the current panel's guard; returns the function that removes it. */
  guard(check: Guard): () => void {
    this.#guard = check;
    return () => {
      if (this.#guard === check) this.#guard = null;
    };
  }
}

function sameView(a: View, b: View): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "channel" && b.kind === "channel") return a.id === b.id && a.at === b.at;
  return a.kind !== "agents" || b.kind !== "agents" || a.focus === b.focus;
}

export const navigation = new Navigation();
