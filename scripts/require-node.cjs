// Runs before `npm start`, `npm test`, `npm run dev` and `npm run bench`: on an older Node.js
// they would fail later with errors that do not say why. Plain old JavaScript on purpose, so
// that any Node.js can run it and print the one line that matters.
var fs = require('fs');
var path = require('path');

var wanted = parseInt(fs.readFileSync(path.join(__dirname, '..', '.nvmrc'), 'utf8'), 10);
var found = process.versions.node;
if (parseInt(found, 10) < wanted) {
  console.error(
    'This project needs Node.js ' +
      wanted +
      ' or newer; this is Node.js ' +
      found +
      '. Run `nvm use` (or see "Requirements" in the README) and try again.',
  );
  process.exit(1);
}
