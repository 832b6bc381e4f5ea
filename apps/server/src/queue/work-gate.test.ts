import { describe, expect, it } from 'vitest';
import { BackgroundWork } from './background-work';
import { GateClosed, WorkGate } from './work-gate';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('work gate', () => {
  it('holds background work while a user waits, and runs it once they are served', async () => {
    const gate = new WorkGate();
    const order: string[] = [];
    let finishUserWork!: () => void;
    const user = gate.userWork(async () => {
      order.push('user starts');
      await new Promise<void>((resolve) => (finishUserWork = resolve));
      order.push('user ends');
    });
    const background = gate.background(async () => {
      order.push('background runs');
      return 'done';
    });
    await tick();
    expect(order).toEqual(['user starts']);
    finishUserWork();
    await user;
    expect(await background).toBe('done');
    expect(order).toEqual(['user starts', 'user ends', 'background runs']);
  });

  it('stops background work the moment user work starts, and does it again afterwards', async () => {
    const gate = new WorkGate();
    const attempts: string[] = [];
    const background = gate.background(async (signal) => {
      attempts.push(`attempt ${attempts.length + 1}`);
      // A long analysis in pieces: it notices the stop between pieces, as ffmpeg would be killed.
      for (let piece = 0; piece < 20; piece++) {
        if (signal.aborted) throw signal.reason;
        await tick();
      }
      return attempts.length;
    });
    await tick(12);
    await gate.userWork(async () => {
      expect(gate.busy).toBe(true);
      await tick(20);
    });
    expect(await background).toBe(2);
    expect(attempts).toEqual(['attempt 1', 'attempt 2']);
    expect(gate.busy).toBe(false);
  });

  it('passes on a background failure that was not a stop', async () => {
    const gate = new WorkGate();
    await expect(
      gate.background(async () => {
        throw new Error('the source is gone');
      }),
    ).rejects.toThrow('the source is gone');
  });

  it('stops background work for good when the process stops, and the close waits for it to settle', async () => {
    const background = new BackgroundWork();
    const gate = new WorkGate(background);
    let settled = false;
    const running = gate.background(
      (signal) =>
        new Promise((_, reject) =>
          // Like ffmpeg killed: the work ends a moment after the stop, not at once.
          signal.addEventListener('abort', () =>
            setTimeout(() => {
              settled = true;
              reject(signal.reason as Error);
            }, 20),
          ),
        ),
    );
    await tick();
    await background.close();
    expect(settled).toBe(true);
    await expect(running).rejects.toBeInstanceOf(GateClosed);
    await expect(gate.background(async () => 'late')).rejects.toBeInstanceOf(GateClosed);
  });

  it('background work waiting behind a user is released, not left hanging, when the process stops', async () => {
    const gate = new WorkGate();
    let finishUserWork!: () => void;
    const user = gate.userWork(() => new Promise<void>((resolve) => (finishUserWork = resolve)));
    const waiting = gate.background(async () => 'ran');
    await tick();
    await gate.close();
    await expect(waiting).rejects.toBeInstanceOf(GateClosed);
    finishUserWork();
    await user;
  });
});
