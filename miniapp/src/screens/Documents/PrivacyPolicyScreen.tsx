import { DocumentFrame } from '../../components/DocumentFrame.tsx';

export default function PrivacyPolicyScreen() {
  return <DocumentFrame src="/privacy-policy.html" titleKey="app.footer.privacy" />;
}
