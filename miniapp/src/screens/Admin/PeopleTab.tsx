import type { AdminPerson } from '@contract/admin.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminPeople } from '../../api/queries/admin.ts';
import { EmptyState, QueryView } from '../../components/States.tsx';
import { ActionBar } from './ActionBar.tsx';
import { PersonCard } from './PersonCard.tsx';
import { actionName } from './actionName.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Lookup by e-mail, Telegram id or profile id: the account's history, and what the CLI can do to it. */
export function PeopleTab() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const query = useAdminPeople(q);
  return (
    <div>
      <form
        className="admin-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQ(draft.trim());
        }}
      >
        <input
          type="search"
          value={draft}
          maxLength={320}
          placeholder={t('app.admin.people.search')}
          aria-label={t('app.admin.people.search')}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className="button small">
          {t('app.admin.people.find')}
        </button>
      </form>
      {q === '' ? (
        <p className="muted">{t('app.admin.people.hint')}</p>
      ) : (
        <QueryView
          query={query}
          failedKey="app.admin.loadFailed"
          isEmpty={(people) => people.length === 0}
          empty={<EmptyState title={t('app.admin.people.nobody')} />}
        >
          {(people) => (
            <ul className="admin-list">
              {people.map((person) => (
                <PersonHistory key={person.user_id} person={person} />
              ))}
            </ul>
          )}
        </QueryView>
      )}
    </div>
  );
}

function PersonHistory({ person }: { person: AdminPerson }) {
  const { t } = useTranslation();
  const [days, setDays] = useState('30');
  const base = `/api/admin/people/${person.user_id}`;
  return (
    <li className="card admin-item" data-person={person.user_id}>
      <h3>{t('app.admin.people.account', { id: person.user_id })}</h3>
      <ul className="admin-facts">
        {person.email && (
          <li>
            {person.email_verified
              ? t('app.admin.people.email', { email: person.email })
              : t('app.admin.people.emailUnverified', { email: person.email })}
          </li>
        )}
        {person.telegram_id && <li>{t('app.admin.people.telegram', { id: person.telegram_id })}</li>}
        <li>{t('app.admin.people.created', { date: day(person.created_at) })}</li>
        <li>
          {person.premium_until
            ? t('app.admin.people.premiumUntil', { date: day(person.premium_until) })
            : t('app.admin.people.noPremium')}
        </li>
        <li>{t('app.admin.people.sessions', { count: person.sessions })}</li>
        {person.banned_at && (
          <li className="danger">{t('app.admin.people.bannedAt', { date: day(person.banned_at) })}</li>
        )}
        <li>{t('app.admin.people.reportsAgainst', { count: person.reports_against.length })}</li>
        <li>{t('app.admin.people.reportsBy', { count: person.reports_by.length })}</li>
      </ul>
      <PersonCard person={person.card} />
      <ActionBar
        actions={[
          person.banned_at
            ? {
                label: t('app.admin.people.unban'),
                doneText: t('app.admin.people.unbannedDone'),
                path: `${base}/unban`,
                body: {},
              }
            : {
                label: t('app.admin.people.ban'),
                doneText: t('app.admin.people.bannedDone'),
                path: `${base}/ban`,
                body: {},
                danger: true,
              },
        ]}
      />
      <div className="admin-grant">
        <label>
          {t('app.admin.people.days')}
          <input
            type="number"
            min={1}
            max={3660}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            inputMode="numeric"
          />
        </label>
        <ActionBar
          withReason={false}
          actions={[
            {
              label: t('app.admin.people.grant'),
              doneText: t('app.admin.people.grant'),
              path: `${base}/grant`,
              body: { days: Number(days) },
            },
          ]}
        />
      </div>
      <h3>{t('app.admin.people.payments')}</h3>
      {person.payments.length === 0 ? (
        <p className="muted">{t('app.admin.people.noPayments')}</p>
      ) : (
        <ul className="admin-facts">
          {person.payments.map((p) => (
            <li key={p.id}>
              #{p.id} · {p.provider} · {p.amount} {p.currency} · {p.status} · {day(p.created_at)}
              {/* Kept for a refunded payment too (without its button): the outcome line outlives the re-read. */}
              {(p.status === 'succeeded' || p.status === 'refunded') && (
                <ActionBar
                  withReason={false}
                  actions={
                    p.status === 'succeeded'
                      ? [
                          {
                            label: t('app.admin.people.refund'),
                            doneText: t('app.admin.people.refunded'),
                            path: `/api/admin/payments/${p.id}/refund`,
                            body: {},
                            danger: true,
                          },
                        ]
                      : []
                  }
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <h3>{t('app.admin.people.history')}</h3>
      {person.actions.length === 0 ? (
        <p className="muted">{t('app.admin.people.noHistory')}</p>
      ) : (
        <ul className="admin-facts">
          {person.actions.map((a) => (
            <li key={a.id}>
              {day(a.created_at)} · {a.admin} · {actionName(t, a.action)}
              {a.reason ? ` · ${a.reason}` : ''}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
