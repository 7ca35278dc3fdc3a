import { fileKey, fileNameFromUploadUrl, responseFileUrl, safeFileName, uploadUrl } from './respondent-file';

describe('respondent files', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\ada\\CV.pdf', 'CV.pdf'],
    ['résumé final.pdf', 'resume_final.pdf'],
    ['..hidden', 'hidden'],
    ['a..b', 'a_b'],
    ['', 'file'],
    ['"quoted";\r\nx.txt', '_quoted____x.txt'],
    ['x'.repeat(300), 'x'.repeat(100)],
  ])('names %p safely as %p', (original, safe) => {
    expect(safeFileName(original)).toBe(safe);
  });

  it("reads back only this form's and this question's files on this region's address", () => {
    const name = 'AbCdEfGhIjKlMnOp-cv.pdf';
    const url = uploadUrl('https://eu.example', 'form1', 'field1', name);
    expect(fileNameFromUploadUrl(url, 'https://eu.example', 'form1', 'field1')).toBe(name);
    expect(fileNameFromUploadUrl(url, 'https://us.example', 'form1', 'field1')).toBeUndefined();
    expect(fileNameFromUploadUrl(url, 'https://eu.example', 'form2', 'field1')).toBeUndefined();
    expect(fileNameFromUploadUrl(url, 'https://eu.example', 'form1', 'field2')).toBeUndefined();
    const escaping = 'https://eu.example/forms/form1/files/field1/AbCdEfGhIjKlMnOp-../../x';
    expect(fileNameFromUploadUrl(escaping, 'https://eu.example', 'form1', 'field1')).toBeUndefined();
    // A response's file, as Typeform's Responses API shows it, is not an upload address.
    const shown = responseFileUrl('https://eu.example', 'form1', 'resp1', 'field1', name);
    expect(shown).toBe(`https://eu.example/forms/form1/responses/resp1/fields/field1/files/${name}`);
    expect(fileNameFromUploadUrl(shown, 'https://eu.example', 'form1', 'field1')).toBeUndefined();
    expect(fileKey('eu', 'form1', 'field1', name)).toBe(`eu/forms/form1/field1/${name}`);
  });
});
