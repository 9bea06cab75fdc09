// What the match page's parts share: the model, the connection, sending an action, and the
// redraws. The page (`index.ts`) provides it; each part takes it.

import type { Connection } from '../net';
import type { ActionMessage } from '../protocol';
import type { MatchModel } from './model';

export interface MatchContext {
  /** The match id. */
  readonly id: string;
  readonly root: HTMLElement;
  readonly model: MatchModel;
  readonly conn: Connection;
  /** Sends an action (with an id, again until the server answers it). */
  act(msg: ActionMessage): void;
  /** Header, boards, panels and clocks; `force` redraws the boards from scratch. */
  renderAll(force?: boolean): void;
  renderBoards(force?: boolean): void;
  /** Boards and panels once at the next frame, for all the moves that came meanwhile. */
  renderNextFrame(): void;
  /** Everything beside the boards and clocks: header, result, seats, actions, talk, record. */
  renderPanels(): void;
  renderClocks(): void;
  /** The connection's state in the header (`bad`: shown in red). */
  renderConn(bad?: boolean): void;
}
