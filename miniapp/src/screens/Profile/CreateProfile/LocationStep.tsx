import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { useCityCheck } from '../../../api/queries/profiles.ts';
import { errorText } from '../../../lib/errorText.ts';
import { locateErrorText, useLocate } from '../../../lib/locate.ts';
import type { WizardAction, WizardState } from './wizardState.ts';

/** Step 2: the city, from the browser's position or typed by hand and looked up. */
export function LocationStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch<WizardAction> }) {
  const { t } = useTranslation();
  const locate = useLocate();
  const cityCheck = useCityCheck();

  function locateHere() {
    dispatch({ type: 'failed', message: null });
    locate.mutate(undefined, {
      onSuccess: (here) => dispatch({ type: 'located', city: here.city, placeId: here.placeId, coords: here.coords }),
      onError: (failure) => dispatch({ type: 'locateFailed', message: locateErrorText(t, failure) }),
    });
  }

  function checkCity() {
    // Spec section 5: an empty manual entry says the city is required (not a silently disabled button).
    if (!state.cityInput.trim()) return dispatch({ type: 'failed', message: t('app.wizard.cityMissing') });
    dispatch({ type: 'failed', message: null });
    cityCheck.mutate(state.cityInput, {
      onSuccess: (found) =>
        dispatch({ type: 'cityFound', city: found.city, placeId: found.place_id, coords: found.coords }),
      onError: (failure) =>
        dispatch({ type: 'failed', message: errorText(t, failure, 'app.errors.cityFailed', 'app.errors.cityFetch') }),
    });
  }

  return (
    <div className="wizard-step">
      <h2>{t('app.wizard.locationTitle')}</h2>
      <p className="muted">{t('app.wizard.locationText')}</p>
      {state.city && (
        <p className="wizard-city" role="status">
          {t('app.wizard.cityFound', { city: state.city })}
        </p>
      )}
      <button type="button" className="button block" disabled={locate.isPending} onClick={locateHere}>
        {locate.isPending ? t('app.common.wait') : t('app.wizard.useLocation')}
      </button>
      {!state.manual && (
        <button
          type="button"
          className="button secondary block"
          onClick={() => dispatch({ type: 'edit', fields: { manual: true } })}
        >
          {t('app.wizard.enterCity')}
        </button>
      )}
      {state.manual && (
        <form
          className="wizard-city-form"
          onSubmit={(e) => {
            e.preventDefault();
            checkCity();
          }}
        >
          <label className="field">
            <span>{t('app.wizard.city')}</span>
            <input
              value={state.cityInput}
              onChange={(e) => dispatch({ type: 'edit', fields: { cityInput: e.target.value } })}
              autoComplete="address-level2"
            />
          </label>
          <button type="submit" className="button secondary block">
            {t('app.wizard.checkCity')}
          </button>
        </form>
      )}
    </div>
  );
}
