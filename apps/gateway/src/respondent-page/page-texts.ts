// The respondent page's own words, in the form's language (settings.language,
// else the form's language); a language without a translation here reads
// English. `{n}` stands for a number. Each language names every text (no
// English left in a translated page): the type says so.
export interface PageTexts {
  start: string;
  ok: string;
  submit: string;
  continue: string;
  back: string;
  next: string;
  pressEnter: string;
  required: string;
  invalidEmail: string;
  invalidUrl: string;
  invalidPhone: string;
  invalidDate: string;
  invalidNumber: string;
  tooLong: string;
  atLeast: string;
  atMost: string;
  pickAtLeast: string;
  pickAtMost: string;
  acceptTerms: string;
  yes: string;
  no: string;
  accept: string;
  decline: string;
  other: string;
  choose: string;
  typeHere: string;
  minutes: string;
  submissions: string;
  answered: string;
  percentAnswered: string;
  submitting: string;
  submitFailed: string;
  retry: string;
  again: string;
  notFound: string;
  needsScript: string;
  moveUp: string;
  moveDown: string;
  payerName: string;
  amountDue: string;
  notCharged: string;
  bookingUrl: string;
  rankedAt: string;
  chooseFile: string;
  uploading: string;
  uploaded: string;
  uploadFailed: string;
  fileTooLarge: string;
}

const en: PageTexts = {
  start: 'Start',
  ok: 'OK',
  submit: 'Submit',
  continue: 'Continue',
  back: 'Previous question',
  next: 'Next question',
  pressEnter: 'press Enter ↵',
  required: 'Please fill this in',
  invalidEmail: 'Hmm, that email address doesn’t look right',
  invalidUrl: 'Hmm, that web address doesn’t look right (http:// or https://)',
  invalidPhone: 'Hmm, that phone number doesn’t look right (+15551234567)',
  invalidDate: 'Hmm, that date doesn’t look right',
  invalidNumber: 'Numbers only, please',
  tooLong: 'At most {n} characters',
  atLeast: 'At least {n}',
  atMost: 'At most {n}',
  pickAtLeast: 'Choose at least {n}',
  pickAtMost: 'Choose at most {n}',
  acceptTerms: 'Please accept to continue',
  yes: 'Yes',
  no: 'No',
  accept: 'I accept',
  decline: 'I don’t accept',
  other: 'Other',
  choose: 'Choose an option',
  typeHere: 'Type your answer here…',
  minutes: 'Takes {n} min',
  submissions: '{n} people have filled this out',
  answered: '{n} of {total} answered',
  percentAnswered: '{n}% answered',
  submitting: 'Sending…',
  submitFailed: 'Your answers could not be sent. Check your connection and try again.',
  retry: 'Try again',
  again: 'Fill in again',
  notFound: 'This form does not exist or is not open to the public.',
  needsScript: 'This form needs JavaScript to be turned on.',
  moveUp: 'Move {label} up',
  moveDown: 'Move {label} down',
  payerName: 'Name of the payer',
  amountDue: 'Amount: {amount}',
  notCharged: 'Nothing is charged here: the payment is recorded for the form’s owner.',
  bookingUrl: 'Link to your booking',
  rankedAt: '{label}: {n} of {total}',
  chooseFile: 'Choose a file',
  uploading: 'Uploading {name}…',
  uploaded: 'Uploaded: {name}',
  uploadFailed: 'The file could not be uploaded. Try again.',
  fileTooLarge: 'This file is too large. Choose a smaller one.',
};

const translations: Record<string, PageTexts> = {
  en,
  es: {
    start: 'Empezar',
    ok: 'OK',
    submit: 'Enviar',
    continue: 'Continuar',
    back: 'Pregunta anterior',
    next: 'Pregunta siguiente',
    pressEnter: 'pulsa Intro ↵',
    required: 'Por favor, rellena esto',
    invalidEmail: 'Esa dirección de correo no parece correcta',
    invalidUrl: 'Esa dirección web no parece correcta (http:// o https://)',
    invalidPhone: 'Ese número de teléfono no parece correcto (+34600000000)',
    invalidDate: 'Esa fecha no parece correcta',
    invalidNumber: 'Solo números, por favor',
    tooLong: 'Como máximo {n} caracteres',
    atLeast: 'Como mínimo {n}',
    atMost: 'Como máximo {n}',
    pickAtLeast: 'Elige al menos {n}',
    pickAtMost: 'Elige como máximo {n}',
    acceptTerms: 'Acepta para continuar',
    yes: 'Sí',
    no: 'No',
    accept: 'Acepto',
    decline: 'No acepto',
    other: 'Otro',
    choose: 'Elige una opción',
    typeHere: 'Escribe tu respuesta aquí…',
    minutes: 'Lleva {n} min',
    submissions: '{n} personas ya lo han rellenado',
    answered: '{n} de {total} respondidas',
    percentAnswered: '{n}% respondido',
    submitting: 'Enviando…',
    submitFailed: 'No se han podido enviar tus respuestas. Comprueba la conexión y vuelve a intentarlo.',
    retry: 'Reintentar',
    again: 'Rellenar de nuevo',
    notFound: 'Este formulario no existe o no está abierto al público.',
    needsScript: 'Este formulario necesita JavaScript.',
    moveUp: 'Subir {label}',
    moveDown: 'Bajar {label}',
    payerName: 'Nombre de quien paga',
    amountDue: 'Importe: {amount}',
    notCharged: 'Aquí no se cobra nada: el pago queda registrado para quien publica el formulario.',
    bookingUrl: 'Enlace a tu reserva',
    rankedAt: '{label}: {n} de {total}',
    chooseFile: 'Elige un archivo',
    uploading: 'Subiendo {name}…',
    uploaded: 'Subido: {name}',
    uploadFailed: 'No se ha podido subir el archivo. Vuelve a intentarlo.',
    fileTooLarge: 'El archivo es demasiado grande. Elige uno más pequeño.',
  },
  fr: {
    start: 'Commencer',
    ok: 'OK',
    submit: 'Envoyer',
    continue: 'Continuer',
    back: 'Question précédente',
    next: 'Question suivante',
    pressEnter: 'appuyez sur Entrée ↵',
    required: 'Merci de remplir ce champ',
    invalidEmail: 'Cette adresse e-mail ne semble pas correcte',
    invalidUrl: 'Cette adresse web ne semble pas correcte (http:// ou https://)',
    invalidPhone: 'Ce numéro de téléphone ne semble pas correct (+33600000000)',
    invalidDate: 'Cette date ne semble pas correcte',
    invalidNumber: 'Des chiffres uniquement',
    tooLong: '{n} caractères au plus',
    atLeast: 'Au moins {n}',
    atMost: 'Au plus {n}',
    pickAtLeast: 'Choisissez-en au moins {n}',
    pickAtMost: 'Choisissez-en au plus {n}',
    acceptTerms: 'Veuillez accepter pour continuer',
    yes: 'Oui',
    no: 'Non',
    accept: 'J’accepte',
    decline: 'Je n’accepte pas',
    other: 'Autre',
    choose: 'Choisissez une option',
    typeHere: 'Tapez votre réponse ici…',
    minutes: 'Prend {n} min',
    submissions: '{n} personnes l’ont rempli',
    answered: '{n} sur {total} répondues',
    percentAnswered: '{n} % répondu',
    submitting: 'Envoi…',
    submitFailed: 'Vos réponses n’ont pas pu être envoyées. Vérifiez votre connexion et réessayez.',
    retry: 'Réessayer',
    again: 'Remplir à nouveau',
    notFound: 'Ce formulaire n’existe pas ou n’est pas ouvert au public.',
    needsScript: 'Ce formulaire a besoin de JavaScript.',
    moveUp: 'Monter {label}',
    moveDown: 'Descendre {label}',
    payerName: 'Nom du payeur',
    amountDue: 'Montant : {amount}',
    notCharged: 'Rien n’est débité ici : le paiement est enregistré pour l’auteur du formulaire.',
    bookingUrl: 'Lien de votre réservation',
    rankedAt: '{label} : {n} sur {total}',
    chooseFile: 'Choisir un fichier',
    uploading: 'Envoi de {name}…',
    uploaded: 'Envoyé : {name}',
    uploadFailed: 'Le fichier n’a pas pu être envoyé. Réessayez.',
    fileTooLarge: 'Ce fichier est trop volumineux. Choisissez-en un plus petit.',
  },
  de: {
    start: 'Starten',
    ok: 'OK',
    submit: 'Absenden',
    continue: 'Weiter',
    back: 'Vorherige Frage',
    next: 'Nächste Frage',
    pressEnter: 'Eingabetaste drücken ↵',
    required: 'Bitte ausfüllen',
    invalidEmail: 'Diese E-Mail-Adresse scheint nicht zu stimmen',
    invalidUrl: 'Diese Webadresse scheint nicht zu stimmen (http:// oder https://)',
    invalidPhone: 'Diese Telefonnummer scheint nicht zu stimmen (+4915100000000)',
    invalidDate: 'Dieses Datum scheint nicht zu stimmen',
    invalidNumber: 'Bitte nur Zahlen',
    tooLong: 'Höchstens {n} Zeichen',
    atLeast: 'Mindestens {n}',
    atMost: 'Höchstens {n}',
    pickAtLeast: 'Wähle mindestens {n}',
    pickAtMost: 'Wähle höchstens {n}',
    acceptTerms: 'Bitte zustimmen, um fortzufahren',
    yes: 'Ja',
    no: 'Nein',
    accept: 'Ich stimme zu',
    decline: 'Ich stimme nicht zu',
    other: 'Andere',
    choose: 'Option wählen',
    typeHere: 'Antwort hier eingeben…',
    minutes: 'Dauert {n} Min.',
    submissions: '{n} Personen haben es ausgefüllt',
    answered: '{n} von {total} beantwortet',
    percentAnswered: '{n} % beantwortet',
    submitting: 'Wird gesendet…',
    submitFailed:
      'Deine Antworten konnten nicht gesendet werden. Prüfe die Verbindung und versuche es erneut.',
    retry: 'Erneut versuchen',
    again: 'Erneut ausfüllen',
    notFound: 'Dieses Formular gibt es nicht, oder es ist nicht öffentlich.',
    needsScript: 'Dieses Formular braucht JavaScript.',
    moveUp: '{label} nach oben',
    moveDown: '{label} nach unten',
    payerName: 'Name der zahlenden Person',
    amountDue: 'Betrag: {amount}',
    notCharged: 'Hier wird nichts abgebucht: Die Zahlung wird für den Formularinhaber vermerkt.',
    bookingUrl: 'Link zu deiner Buchung',
    rankedAt: '{label}: {n} von {total}',
    chooseFile: 'Datei auswählen',
    uploading: '{name} wird hochgeladen…',
    uploaded: 'Hochgeladen: {name}',
    uploadFailed: 'Die Datei konnte nicht hochgeladen werden. Versuche es erneut.',
    fileTooLarge: 'Diese Datei ist zu groß. Wähle eine kleinere.',
  },
};

export function pageTexts(language: string | undefined): PageTexts {
  return (language && Object.hasOwn(translations, language) ? translations[language] : undefined) ?? en;
}
