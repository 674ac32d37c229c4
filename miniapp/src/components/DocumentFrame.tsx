import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../i18n.ts';
import './DocumentFrame.css';

/** /offer and /privacy-policy: the static documents in a full-page frame (spec section 2). */
export function DocumentFrame({ src, titleKey }: { src: string; titleKey: TranslationKey }) {
  const { t, i18n } = useTranslation();
  return <iframe className="document-frame" src={`${src}#${i18n.language}`} title={t(titleKey)} />;
}
