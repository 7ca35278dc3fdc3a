import { describeRedisError } from './redis-connection';

describe('describeRedisError', () => {
  it('names the variables to check when Redis refuses the credentials', () => {
    for (const reply of ['WRONGPASS invalid username-password pair', 'NOAUTH Authentication required.'])
      expect(describeRedisError(new Error(reply))).toMatch(/refused our credentials.*REDIS_PASSWORD/);
  });

  it('says unreachable for anything else', () => {
    expect(describeRedisError(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toBe(
      'Redis unreachable: connect ECONNREFUSED 127.0.0.1:6379',
    );
  });
});
