import { imageIdFromHref } from './image-references';

const bases = { us: 'https://api.example.com', eu: 'https://api.eu.example.com' };

describe('imageIdFromHref', () => {
  it.each([
    ['https://api.example.com/images/Abc123', 'Abc123'],
    ['https://api.eu.example.com/images/Abc123', 'Abc123'],
    ['https://api.example.com/images/Abc123/choice/thumbnail', 'Abc123'],
    ['https://api.example.com/images/Abc123/', 'Abc123'],
  ])('reads %p as image %p', (href, id) => {
    expect(imageIdFromHref(href, bases)).toBe(id);
  });

  it.each([
    'https://images.typeform.com/images/Abc123',
    'https://api.example.com.evil.test/images/Abc123',
    'https://api.example.com/images/Abc123?x=1',
    'https://api.example.com/images/Abc123/other/thumbnail',
    'https://api.example.com/images/../forms/x',
    'https://api.example.com/themes/Abc123',
    'not a url',
  ])('does not take %p for one of our images', (href) => {
    expect(imageIdFromHref(href, bases)).toBeUndefined();
  });
});
