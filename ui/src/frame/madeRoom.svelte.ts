// Agents stopped to make room for another (issue 29, `agent:evicted`): said in a toast until
// dismissed or for a while, the newest last; the agent's conversation keeps its own line.

import { On } from "../../bindings";

export interface MadeRoomNotice {
  key: number;
  agent: string;
  forAgent: string;
  limit: number;
}

/** How long a notice stays without being dismissed: long enough to read and follow its link. */
const SHOWN_MS = 20_000;
/** Older notices give way: a burst of starts never covers the conversation. */
const AT_MOST = 3;

class MadeRoomNotices {
  list = $state<MadeRoomNotice[]>([]);
  #next = 0;

  follow(): () => void {
    const off = On("agent:evicted", ({ agent, forAgent, limit }) => {
      const notice = { key: this.#next++, agent, forAgent, limit };
      this.list = [...this.list.filter((n) => n.agent !== agent), notice].slice(-AT_MOST);
      setTimeout(() => this.dismiss(notice.key), SHOWN_MS);
    });
    return off;
  }

  dismiss(key: number): void {
    this.list = this.list.filter((n) => n.key !== key);
  }
}

export const madeRoom = new MadeRoomNotices();
