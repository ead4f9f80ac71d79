/**
 * An e-mail that, in a narrow place, breaks before the «@» and before the dots of its domain, never
 * inside a word (with `.email-text`: a part longer than the place is the only one broken).
 */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <span className="email-text">{email}</span>;
  const [host, ...rest] = email.slice(at + 1).split('.');
  return (
    <span className="email-text">
      {email.slice(0, at)}
      <wbr />@{host}
      {rest.map((part, i) => (
        <span key={i}>
          <wbr />.{part}
        </span>
      ))}
    </span>
  );
}
