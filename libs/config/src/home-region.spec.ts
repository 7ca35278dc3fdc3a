import { DomainError, ErrorCode } from '@formline/errors';
import { homeRegionUrl, requireHomeRegion } from './home-region';

const us = { REGION: 'us', BASE_URL: 'https://api.example/', EU_BASE_URL: 'https://eu.api.example' } as const;

describe('the home region of data', () => {
  it('is reached here when it is this region', () => {
    expect(homeRegionUrl(us, 'us', '/forms/f1/webhooks')).toBeUndefined();
    expect(() => requireHomeRegion(us, 'us', "This form's webhooks")).not.toThrow();
  });

  it('is refused elsewhere with 421 WRONG_REGION, naming the address that serves it', () => {
    expect(homeRegionUrl(us, 'eu', '/forms/f1/webhooks')).toBe('https://eu.api.example/forms/f1/webhooks');
    let refused: unknown;
    try {
      requireHomeRegion(us, 'eu', "This form's webhooks", '/forms/f1/webhooks');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe(ErrorCode.WrongRegion);
    expect((refused as DomainError).description).toBe(
      "This form's webhooks live in the eu region: call https://eu.api.example/forms/f1/webhooks.",
    );
  });
});
