/** A pending long poll or chat watcher; `wake(true)` when a newer poll ends it. */
export interface Poller {
  wake(byOther?: boolean): void;
}

/**
 * Waits in `group` until woken, at most `timeoutMs`, or until `onGone` calls back (the client left);
 * true when a newer poll ended the wait.
 */
export function waitToBeWoken(
  group: Set<Poller>,
  timeoutMs: number,
  onGone: (wake: () => void) => void,
): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const poller: Poller = {
      wake: (byOther = false) => {
        clearTimeout(timer);
        group.delete(poller);
        resolve(byOther);
      },
    };
    const timer = setTimeout(() => poller.wake(), timeoutMs);
    onGone(() => poller.wake());
    group.add(poller);
  });
}
