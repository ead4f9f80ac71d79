import type { ReferralSummary } from '@gpt/contracts';

import { withStart } from '@/components/ui/bot-link-button';
import { CopyField } from '@/components/ui/copy-field';
import { useBotUrl } from '@/lib/use-bot-url';

import { useReferrals } from '../api/get-referrals';

const numberFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="referral-figure">
      <div className="referral-figure-value" data-testid={testId}>
        {numberFormat.format(value)}
      </div>
      <div className="small text-body-secondary">{label}</div>
    </div>
  );
}

/** The bot's link with `ref_CODE`: Telegram's, or the sandbox page's when the bot runs on the sandbox. */
function BotLink({ summary }: { summary: ReferralSummary }) {
  const botUrl = useBotUrl();
  if (!botUrl)
    return <p className="small text-body-secondary">Ссылка на бота появится, когда бот подключён к Telegram.</p>;
  return (
    <CopyField id="referral-bot-link" label="Ссылка на бота" value={withStart(botUrl, summary.bot_start_payload)} />
  );
}

/** «Пригласить друга»: the two links with copy buttons and what they brought. */
export function InviteFriends() {
  const { data, error } = useReferrals();
  if (error) return <p className="text-danger mb-0">Не удалось загрузить данные приглашений</p>;
  if (!data) return <p className="text-body-secondary mb-0">Загрузка…</p>;
  return (
    <div data-testid="invite-friends">
      <p className="text-body-secondary">
        Поделитесь ссылкой: с каждой оплаты друга вы получите {data.percent}% купленных им кредитов
        {data.max_credits_per_friend > 0 &&
          `, до ${numberFormat.format(data.max_credits_per_friend)} кредитов с одного друга`}
        .
      </p>
      <CopyField id="referral-site-link" label="Ссылка на сайт" value={data.site_link} />
      <BotLink summary={data} />
      <div className="d-flex flex-wrap gap-4 mt-3">
        <Figure label="Приглашено" value={data.invited} testId="referral-invited" />
        <Figure label="Оплатили" value={data.paying} testId="referral-paying" />
        <Figure label="Заработано кредитов" value={data.credits_earned} testId="referral-earned" />
      </div>
    </div>
  );
}
