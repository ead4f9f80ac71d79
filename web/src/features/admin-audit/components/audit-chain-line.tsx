import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, pluralRu } from '@/lib/dates';

import { useAuditVerification } from '../api/get-admin-audit';
import { actionLabel } from './audit-labels';

/** The dashboard's line about «Журнал действий»: every chain whole, or the first entry where one breaks. */
export function AuditChainLine() {
  const verification = useAuditVerification();
  const state = verification.data;
  const entries = state?.services.reduce((sum, service) => sum + service.entries, 0) ?? 0;
  let text: string;
  let tone = 'text-body-secondary';
  if (verification.isError) text = errorMessage(verification.error, 'Журнал действий не проверен.');
  else if (!state) text = 'Журнал действий проверяется…';
  else if (state.broken) {
    const { service, id, at, action } = state.broken;
    text = `Журнал действий изменён вручную: цепочка нарушена в записи ${service} №${id} (${formatDateTime(at)}, ${actionLabel(action)})`;
    tone = 'text-danger fw-semibold';
  } else
    text = `Журнал действий цел: ${entries} ${pluralRu(entries, ['запись', 'записи', 'записей'])}, цепочка проверена`;
  return (
    <p className={`mb-3 small ${tone}`} data-testid="audit-chain">
      {text} · <Link to={paths.admin.audit}>Открыть журнал</Link>
    </p>
  );
}
