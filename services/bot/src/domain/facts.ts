import type { BotLinkTokenResponse, PublicTariff } from '@gpt/contracts';

/** The names of the tariffs on which /image draws, as billing lists them. */
export const imageTariffNames = (tariffs: PublicTariff[]) =>
  tariffs.filter((tariff) => tariff.can_generate_images).map((tariff) => tariff.name);

/** How long a link token auth just issued stays valid, in whole minutes (auth's LINK_TOKEN_TTL_MIN). */
export const linkLifetimeMinutes = (link: Pick<BotLinkTokenResponse, 'expires_at'>, now = Date.now()) =>
  Math.max(1, Math.round((Date.parse(link.expires_at) - now) / 60_000));
