import { basicCredentialsFrom } from './basic-credentials';

const basic = (value: string) => `Basic ${Buffer.from(value).toString('base64')}`;

describe('basicCredentialsFrom', () => {
  it('reads user and password, the password may hold colons', () => {
    expect(basicCredentialsFrom(basic('a@example.com:p:w'))).toEqual({
      user: 'a@example.com',
      password: 'p:w',
    });
    expect(basicCredentialsFrom(`basic ${Buffer.from('u:p').toString('base64')}`)).toEqual({
      user: 'u',
      password: 'p',
    });
  });

  it.each([undefined, '', 'Bearer abc', 'Basic !!!', basic('no-colon'), basic(':no-user'), ['Basic x']])(
    'finds no credentials in %p',
    (header) => {
      expect(basicCredentialsFrom(header)).toBeUndefined();
    },
  );
});
