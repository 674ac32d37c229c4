/** Digits the mails send (verification, password reset, e-mail change); the server checks the same length. */
export const codeLength = 6;
import './CodeField.css';

/**
 * The labelled field for the 6-digit code from a mail. Keeps digits only, so a code pasted with spaces or
 * a dash still fits; `one-time-code` lets the phone offer the code from the mail.
 */
export function CodeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (digits: string) => void;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        className="code-input"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${codeLength}}`}
        maxLength={codeLength}
        required
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
      />
    </label>
  );
}
