import { type RefObject, useLayoutEffect } from 'react';

/** Room left under the window: its border and a little air above the screen's edge. */
const BOTTOM_GAP_PX = 16;
const MIN_HEIGHT_PX = 360;

/**
 * Sizes an element to the rest of the screen below its top, as Telegram's web client fills the window:
 * the chat's composer stays in view at any window height and the messages scroll inside.
 */
export function useFillViewport(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const fit = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.height = `${Math.max(MIN_HEIGHT_PX, window.innerHeight - top - BOTTOM_GAP_PX)}px`;
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [ref]);
}
