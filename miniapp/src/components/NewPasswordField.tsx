import { useState } from 'react';
import { useTranslation } from 'react-i18next';
// Spec section 5: the server's own rule, checked before sending.
import { passwordRule } from '@contract/passwordRule.ts';

/** A new password being typed, and whether it broke the rule when the form was last sent. */
export interface NewPassword {
  value: string;
  setValue: (value: string) => void;
  invalid: boolean;
  /** Checks the rule before sending: false (and the hint turns into an alert) when it is broken. */
  check: () => boolean;
}

export function useNewPassword(): NewPassword {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  function check() {
    const ok = passwordRule.test(value);
    setInvalid(!ok);
    return ok;
  }
  return { value, setValue, invalid, check };
}

interface NewPasswordFieldProps {
  label: string;
  /** The input's name; each form keeps its own, which the browser tests select by. */
  name: string;
  /** The rule hint's id, unique on the page (the account screen has two of these fields). */
  hintId: string;
  field: NewPassword;
}

/** A new password's field with the password rule under it. */
export function NewPasswordField({ label, name, hintId, field }: NewPasswordFieldProps) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type="password"
        name={name}
        autoComplete="new-password"
        required
        aria-invalid={field.invalid}
        aria-describedby={hintId}
        value={field.value}
        onChange={(e) => field.setValue(e.target.value)}
      />
      <small
        id={hintId}
        className={field.invalid ? 'hint hint-error' : 'hint'}
        role={field.invalid ? 'alert' : undefined}
      >
        {t('app.register.passwordRule')}
      </small>
    </label>
  );
}
