import { describe, expect, it } from 'vitest';
import { IdMaker, Outbox, RESEND_MS } from '../src/outbox';
import type { ClientFrame } from '../src/protocol';

function setup() {
  let now = 1000;
  let open = true;
  const sent: ClientFrame[] = [];
  const box = new Outbox(
    f => {
      if (!open) return false;
      sent.push(f);
      return true;
    },
    () => now,
    new IdMaker(() => 1_732_400_000_000),
  );
  return {
    box,
    sent,
    advance: (ms: number) => (now += ms),
    setOpen: (o: boolean) => (open = o),
  };
}

describe('outbox', () => {
  it('makes distinct ids below 2^53 from the time in microseconds', () => {
    const ids = new IdMaker(() => 1_732_400_000_000);
    const a = ids.next();
    const b = ids.next();
    expect(a).toBe(1_732_400_000_000_000);
    expect(b).toBe(a + 1);
    expect(b).toBeLessThan(2 ** 53);
  });

  it('sends with an id and forgets the action once answered', () => {
    const { box, sent } = setup();
    const id = box.add({ type: 'move', uci: 'e2e4' });
    expect(sent).toEqual([{ type: 'move', uci: 'e2e4', id }]);
    expect(box.has('move')).toBe(true);
    expect(box.settle(id)?.msg).toEqual({ type: 'move', uci: 'e2e4' });
    expect(box.size).toBe(0);
    expect(box.settle(id)).toBeUndefined();
  });

  it('sends again after RESEND_MS on a live connection, with the same id', () => {
    const { box, sent, advance } = setup();
    const id = box.add({ type: 'resign' });
    advance(RESEND_MS - 1);
    box.resendDue();
    expect(sent.length).toBe(1);
    advance(1);
    box.resendDue();
    expect(sent.map(f => 'id' in f && f.id)).toEqual([id, id]);
  });

  it('keeps what could not be sent and sends it, oldest first, on the next connection', () => {
    const { box, sent, setOpen } = setup();
    setOpen(false);
    const a = box.add({ type: 'talk', kind: 'text', text: 'hi' });
    const b = box.add({ type: 'move', uci: 'g1f3' });
    expect(sent).toEqual([]);
    setOpen(true);
    box.resendAll();
    expect(sent.map(f => 'id' in f && f.id)).toEqual([a, b]);
  });
});
