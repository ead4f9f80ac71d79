import { BroadcastComposer } from './broadcast-composer';
import { BroadcastHistory } from './broadcast-history';

/** The admin «Рассылки»: a new broadcast above, the history with live figures below (docs/bot.md, Broadcasts). */
export function AdminBroadcastsScreen() {
  return (
    <>
      <BroadcastComposer />
      <h2 className="h5 mb-3">История</h2>
      <BroadcastHistory />
    </>
  );
}
