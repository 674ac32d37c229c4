/**
 * Whether the operator's LEGAL_NAME already names its legal form («ИП Иванова М. С.», "Individual entrepreneur
 * …", «ООО …»). It is then shown as given: the footer's «ИП {{name}}» would read «ИП ИП …». Registered
 * names are written either way, so the app adapts rather than asking operators for one spelling.
 */
const legalForm =
  /^(ип|и\.\s*п\.|индивидуальный предприниматель|ооо|ао|пао|ie|individual entrepreneur|llc|ltd)(?=[\s.,]|$)/iu;

export function namesLegalForm(name: string): boolean {
  return legalForm.test(name.trim());
}
