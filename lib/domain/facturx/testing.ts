// The reference validators (xmllint, Saxon-HE, qpdf, poppler) and the PDF inspection the tests of lib/domain/pdf use on
// the files they render (docs/facturx.md "Validating by hand").
export { type Finding, inspectPdf, missingValidators, type PdfReport, validateXmlDirectory, type XmlReport, xmpValue } from './validate';
export { setSchematronEngine } from './einvoice-validation';
