import { holdsRespondentEmail } from './respondent-match';

const emails = ['ana@example.com'];

describe('holdsRespondentEmail', () => {
  it('matches an email answer exactly, whatever its case', () => {
    expect(holdsRespondentEmail({ answers: [{ type: 'email', email: 'Ana@Example.com' }] }, emails)).toBe(
      true,
    );
    expect(holdsRespondentEmail({ answers: [{ type: 'email', email: 'xana@example.com' }] }, emails)).toBe(
      false,
    );
  });

  it('matches a text answer that contains the address', () => {
    const payload = { answers: [{ type: 'text', text: 'Write to ANA@example.com please' }] };
    expect(holdsRespondentEmail(payload, emails)).toBe(true);
    expect(holdsRespondentEmail({ answers: [{ type: 'text', text: 'ana at example' }] }, emails)).toBe(false);
  });

  it('matches a hidden field or a text variable that equals it', () => {
    expect(holdsRespondentEmail({ hidden: { who: 'ana@example.com' } }, emails)).toBe(true);
    expect(holdsRespondentEmail({ hidden: { who: 'ana@example.com.au' } }, emails)).toBe(false);
    const variables = [{ key: 'contact', type: 'text', text: 'ANA@example.com' }];
    expect(holdsRespondentEmail({ variables }, emails)).toBe(true);
  });

  it('reads only own properties of the stored JSON', () => {
    const inherited = Object.create({ answers: [{ email: 'ana@example.com' }] }) as object;
    expect(holdsRespondentEmail(inherited, emails)).toBe(false);
    expect(holdsRespondentEmail(null, emails)).toBe(false);
  });
});
