// Realistic document texts written for these tests (fictional companies, test IBANs).

export const INVOICE_EN = `ACME Widgets Ltd
12 High Street, London EC1A 1BB
Phone: +44 20 7946 0958   Email: billing@acme-widgets.example

INVOICE

Invoice No: INV-2024-0042
Invoice Date: 05/03/2024
Due Date: 04/04/2024
PO Number: PO-7781

Bill To:
Globex Corporation
742 Evergreen Terrace

Description\tQty\tUnit Price\tAmount
Widget A\t2\t10.00\t20.00
Widget B (blue)\t3\t15.50\t46.50
Installation service\t1\t100.00\t100.00

Subtotal\t\t\t166.50
VAT 20%\t\t\t33.30
Total\t\t\t£199.80

Payment by bank transfer to
IBAN: GB82 WEST 1234 5698 7654 32
VAT Reg No: GB 123 4567 89
`;

export const INVOICE_DE = `Muster Elektro GmbH · Hauptstraße 12 · 10115 Berlin

Schmidt & Partner KG
Herrn Thomas Schmidt
Lindenallee 5
20095 Hamburg

Rechnung

Rechnungsnummer: RE-2024-1187
Rechnungsdatum: 12.03.2024
Kundennummer: 40231
Fällig am: 26.03.2024

Pos.  Bezeichnung                 Menge   Einzelpreis   Gesamtpreis
1     Kabel NYM-J 3x1,5 (50 m)     2       45,90 €       91,80 €
2     Steckdose Unterputz          10      4,25 €        42,50 €
3     Montage (Stunden)            3,5     58,00 €      203,00 €

Nettobetrag                                            337,30 €
zzgl. 19 % USt.                                         64,09 €
Gesamtbetrag                                           401,39 €

Bitte überweisen Sie den Betrag innerhalb von 14 Tagen.
Bankverbindung: Berliner Sparkasse
IBAN: DE89 3704 0044 0532 0130 00  BIC: COBADEFFXXX
USt-IdNr.: DE123456789   Tel.: 030 1234567`;

export const INVOICE_FR = `Studio Lumière SARL
8 rue des Lilas, 69002 Lyon
Tél. : +33 4 78 12 34 56
contact@studio-lumiere.example

FACTURE

Facture n° : F-2024-0315
Date de facture : 15 mars 2024
Date d'échéance : 14/04/2024

Facturé à :
Boulangerie Martin
12 avenue Jean Jaurès, 75019 Paris

Désignation              Qté    Prix unitaire    Montant HT
Séance photo produits    1      450,00           450,00
Retouche (par image)     20     12,50            250,00

Total HT                         700,00 €
TVA 20 %                         140,00 €
Montant TTC                      840,00 €

IBAN : FR14 2004 1010 0505 0001 3M02 606
N° TVA intracommunautaire : FR12345678901`;

export const RECEIPT_DE = `REWE Markt GmbH
Bahnhofstr. 3
50667 Köln
Tel. 0221 987654

BANANEN                  1,99 B
MILCH 3,5%               1,15 B
BROT                     1,78 B
  2 Stk x 0,89
SPUELMITTEL              2,49 A
--------------------------------
SUMME EUR                7,41
Geg. EC-Karte            7,41

05.03.2024 18:42   Bon-Nr. 4711`;

export const RECEIPT_EN = `THE CORNER CAFE
221 Baker Street
San Francisco, CA 94103

03/14/2024  08:12 AM

2 x Cappuccino            9.00
Blueberry Muffin          3.75
Orange Juice              4.25

Subtotal                 17.00
Sales Tax 8.5%            1.45
TOTAL                    18.45

VISA ************4242    18.45
Thank you!`;

export const BANK_EN = `Northwind Bank plc
Account Statement

Account holder: Jane Doe
IBAN: GB33 BUKB 2020 1555 5555 55
Statement period: 01/03/2024 to 31/03/2024

Date        Description                 Amount      Balance
            Opening balance                          1,250.00
03/03/2024  Salary ACME Ltd             2,500.00    3,750.00
05/03/2024  Rent                       -1,100.00    2,650.00
            Closing balance                          2,650.00
`;

export const BANK_DE = `Sparkasse Musterstadt
Kontoauszug vom 01.02.2024 bis 29.02.2024

Kontoinhaber: Max Mustermann
IBAN DE89 3704 0044 0532 0130 00

Alter Kontostand                      1.024,17 H
02.02.  Lastschrift Stadtwerke        -84,00
15.02.  Gehalt                      2.310,55
Neuer Kontostand                      3.250,72 H`;

export const BANK_FR = `Banque Exemple
Relevé de compte
Période du 01/01/2024 au 31/01/2024
IBAN : FR14 2004 1010 0505 0001 3M02 606

Ancien solde au 31/12/2023         5 120,00
Nouveau solde au 31/01/2024        4 870,35`;

export const PURCHASE_ORDER = `Initech Procurement Inc.
PURCHASE ORDER

PO Number: PO-2024-118
Order Date: March 8, 2024
Delivery Date: March 22, 2024

Vendor: Contoso Supplies LLC
Ship To: Initech Warehouse 3

Item            Qty   Unit Price   Total
Paper A4 box    10    24.99        249.90
Toner black     2     89.00        178.00

Total                              $427.90`;

export const CONTRACT_EN = `SERVICE AGREEMENT

This Service Agreement is made on 1 April 2024 by and between Hooli Technologies Ltd, a company registered in England (the "Client"), and Pied Piper Consulting LLC (the "Contractor"). The parties agree as follows.

1. Effective Date. This Agreement is effective as of 15 April 2024.`;

export const CONTRACT_DE = `Dienstleistungsvertrag

zwischen der Beispiel AG, Musterweg 1, 80331 München (nachfolgend „Auftraggeber“) und der Nordlicht IT GmbH (nachfolgend „Auftragnehmer“). Der Vertrag tritt in Kraft.

Vertragsbeginn: 01.05.2024`;

export const RESUME = `Maria Gonzalez
Senior Software Engineer
maria.gonzalez@example.org | +49 151 23456789 | Berlin

Experience
2019 - 2024  Lead Developer, Hooli GmbH`;

export const LETTER = `Stadtwerke Beispielstadt GmbH · Postfach 12 · 12345 Beispielstadt

Frau Erika Musterfrau
Musterstraße 3
12345 Beispielstadt

Beispielstadt, 4. März 2024

Betreff: Ihre Zählerablesung

Sehr geehrte Frau Musterfrau,
...`;
