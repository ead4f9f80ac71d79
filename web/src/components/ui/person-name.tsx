import { personName, type PersonNames } from '@gpt/contracts';

import { EmailText } from './email-text';

/**
 * A person as the product names them everywhere (`personName`); an e-mail, theirs or the `fallback` one when
 * nothing else names them, breaks as `EmailText` does. A dash when nothing is known.
 */
export function PersonName({ person, fallback }: { person: PersonNames; fallback?: string | null }) {
  const name = personName(person) || fallback;
  if (!name) return <>—</>;
  return name === person.email || name === fallback ? <EmailText email={name} /> : <>{name}</>;
}
