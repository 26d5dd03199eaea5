// Real photographs and artwork from Debian packages, put on the evaluation drive under the names a
// phone or camera gives them (the name says nothing of what they show), and short videos made from
// some of them. `fetch-real-media.mjs` downloads the packages and renders these into .real-media/.
// `shows` is what a person sees in the picture: it documents the judgments in queries-real.json and
// is never given to the server.

/** Debian packages the media come from, and the folder each one installs its files under. */
export const packages = {
  skimage: { name: 'python3-skimage', root: 'usr/lib/python3/dist-packages/skimage/data' },
  lomiri16: { name: 'lomiri-wallpapers-16.04', root: 'usr/share/backgrounds' },
  lomiri20: { name: 'lomiri-wallpapers-20.04', root: 'usr/share/backgrounds' },
  mate: { name: 'mate-backgrounds', root: 'usr/share/backgrounds/mate' },
  ukui: { name: 'ukui-wallpapers', root: 'usr/share/backgrounds' },
  plasma: { name: 'plasma-workspace-wallpapers', root: 'usr/share/wallpapers' },
  palapeli: { name: 'palapeli-data', root: 'usr/share/palapeli/collection' },
  sklearn: { name: 'python3-sklearn', root: 'usr/lib/python3/dist-packages/sklearn/datasets/images' },
  opencv: { name: 'opencv-doc', root: 'usr/share/doc/opencv-doc/examples' },
};

const photo = (path, pkg, file, shows) => ({ path, pkg, file, shows });

/** Photographs, as JPEG. */
export const realPhotos = [
  photo(
    'Camera/IMG_7101.jpg',
    'skimage',
    'astronaut.png',
    'a woman astronaut in an orange space suit beside a flag and a model space shuttle',
  ),
  photo('Camera/IMG_7102.jpg', 'skimage', 'camera.png', 'black and white: a man looking through a camera on a tripod in a field'),
  photo('Camera/IMG_7104.jpg', 'skimage', 'coffee.png', 'an espresso cup on a saucer with a spoon, wooden table'),
  photo('Camera/IMG_7105.jpg', 'skimage', 'motorcycle_left.png', 'a red motorcycle parked in a garage full of shelves'),
  photo('DCIM/DSC_0201.jpg', 'lomiri16', 'Bridge_by_Sander_Klootwijk.jpg', 'steel cables of a bridge against a blue sky over tidal flats'),
  photo('DCIM/DSC_0202.jpg', 'lomiri16', 'Dragonfly_by_Bolly.jpg', 'a dragonfly on a twig among leaves, blue sky'),
  photo('DCIM/DSC_0203.jpg', 'lomiri20', 'Kleiber_by_Lukas_Baubkus.jpg', 'a small bird (nuthatch) clinging to a tree trunk'),
  photo('DCIM/DSC_0204.jpg', 'lomiri16', 'Picture_0B_by_freespace.jpg', 'half a fig in a red bowl on concrete'),
  photo('DCIM/DSC_0205.jpg', 'lomiri16', 'Picture_1A_by_freespace.jpg', 'paint brushes with colourful bristles in a jar'),
  photo(
    'DCIM/DSC_0206.jpg',
    'lomiri16',
    'Wine_by_Jakkub_Mede.jpg',
    'a living room: a bottle of wine and a glass on a table, a djembe drum on a beanbag',
  ),
  photo('DCIM/DSC_0207.jpg', 'lomiri16', 'aitzgorri_by_Aitzol_Berasategi.jpg', 'mountains in autumn, orange trees and a green meadow'),
  photo('DCIM/DSC_0208.jpg', 'lomiri16', 'free_by_Peter_Nerlich.jpg', 'a toy bird hanging under round ceiling lamps'),
  photo('DCIM/DSC_0210.jpg', 'lomiri16', 'greentock_by_Peter_Nerlich.jpg', 'a white wall clock, close up'),
  photo('DCIM/DSC_0212.jpg', 'mate', 'nature/Aqua.jpg', 'a drop splashing into water'),
  photo('DCIM/DSC_0213.jpg', 'mate', 'nature/Blinds.jpg', 'a green leaf, close up'),
  photo('DCIM/DSC_0214.jpg', 'mate', 'nature/Dune.jpg', 'dune grass with the sea behind'),
  photo('DCIM/DSC_0215.jpg', 'mate', 'nature/FreshFlower.jpg', 'an orange flower, close up'),
  photo('DCIM/DSC_0216.jpg', 'mate', 'nature/Garden.jpg', 'a red and yellow marigold flower'),
  photo('DCIM/DSC_0217.jpg', 'mate', 'nature/GreenMeadow.jpg', 'blades of green grass'),
  photo('DCIM/DSC_0218.jpg', 'mate', 'nature/LadyBird.jpg', 'a ladybird on a stem among small blue flowers'),
  photo('DCIM/DSC_0219.jpg', 'mate', 'nature/RainDrops.jpg', 'raindrops on green leaves'),
  photo('DCIM/DSC_0221.jpg', 'mate', 'nature/TwoWings.jpg', 'dandelion seeds in front of an orange flower'),
  photo('DCIM/DSC_0222.jpg', 'mate', 'nature/Wood.jpg', 'weathered wooden planks'),
  photo('DCIM/DSC_0223.jpg', 'mate', 'nature/YellowFlower.jpg', 'a yellow flower, close up'),
  photo(
    'Camera/IMG_7107.jpg',
    'lomiri16',
    'picosdeeuropa_by_Aitzol_Berasategi.jpg',
    'a hiking trail below snowy rocky peaks of the Picos de Europa',
  ),
  photo('Camera/IMG_7108.jpg', 'lomiri16', 'seeding_by_Clements_Engelhardt.jpg', 'dandelion clocks in a meadow in evening light'),
  photo('Camera/IMG_7109.jpg', 'lomiri16', 'sunset_by_Aitzol_Berasategi.jpg', 'the sun setting over a mountain ridge, seen from a summit'),
  photo('Camera/IMG_7110.jpg', 'plasma', 'BytheWater/contents/images/2560x1600.jpg', 'a wooden jetty by a lake'),
  photo('Camera/IMG_7111.jpg', 'plasma', 'ColdRipple/contents/images/2560x1600.jpg', 'black and white: a pier in fog over still water'),
  photo('Camera/IMG_7112.jpg', 'plasma', 'ColorfulCups/contents/images/2560x1600.jpg', 'stacked plastic cups, blue and red'),
  photo('Camera/IMG_7113.jpg', 'plasma', 'DarkestHour/contents/images/2560x1600.jpg', 'a misty lake at dusk, blue'),
  photo('Camera/IMG_7115.jpg', 'plasma', 'FallenLeaf/contents/images/2560x1600.jpg', 'fallen autumn maple leaves on the ground'),
  photo('Camera/IMG_7116.jpg', 'plasma', 'Grey/contents/images/2560x1600.jpg', 'black and white: the woven facade of a modern building'),
  photo('Camera/IMG_7118.jpg', 'plasma', 'OneStandsOut/contents/images/2560x1600.jpg', 'green plants seen from above, one of them orange'),
  photo('Camera/IMG_7119.jpg', 'plasma', 'Path/contents/images/2560x1600.jpg', 'a path through a pine forest'),
  photo('Camera/IMG_7120.jpg', 'plasma', 'summer_1am/contents/images/2560x1600.jpg', 'a lake under a pink twilight sky'),
  photo('Pictures/Trips/PXL_20230614_0002.jpg', 'palapeli', 'european-honey-bee.jpg', 'a honey bee on a purple aster flower'),
  photo('Pictures/Trips/PXL_20230614_0003.jpg', 'palapeli', 'panther-chameleon-female.jpg', 'a chameleon on a branch'),
  photo('Pictures/Trips/PXL_20230614_0005.jpg', 'palapeli', 'citrus-fruits.jpg', 'slices of oranges and limes'),
  photo('Pictures/Trips/PXL_20230614_0006.jpg', 'sklearn', 'flower.jpg', 'an orange dahlia flower'),
  photo('Pictures/Trips/PXL_20230614_0007.jpg', 'sklearn', 'china.jpg', 'the Tower of Buddhist Incense at the Summer Palace in Beijing'),
  photo('Pictures/Trips/PXL_20230614_0008.jpg', 'opencv', 'alphamat/input_images/plant.jpg', 'a potted plant on an office desk'),
  photo('Camera/IMG_8101.jpg', 'opencv', 'data/apple.jpg', 'a red apple'),
  photo('Camera/IMG_8102.jpg', 'opencv', 'data/baboon.jpg', 'the face of a mandrill monkey'),
  photo('Camera/IMG_8103.jpg', 'opencv', 'data/building.jpg', 'a modern hotel building with a lawn in front'),
  photo('Camera/IMG_8104.jpg', 'opencv', 'data/butterfly.jpg', 'a black and white swallowtail butterfly on a leaf'),
  photo('Camera/IMG_8105.jpg', 'opencv', 'data/fruits.jpg', 'cut fruit: orange, kiwi, lemon and lime'),
  photo('Camera/IMG_8106.jpg', 'opencv', 'data/home.jpg', 'ornate palace towers against a blue sky with birds'),
  photo('Camera/IMG_8108.jpg', 'opencv', 'data/orange.jpg', 'an orange'),
  photo('Camera/IMG_8110.jpg', 'opencv', 'data/leuvenA.jpg', 'old brick houses on a cobbled street in Leuven'),
  photo('Camera/IMG_8111.jpg', 'opencv', 'data/aero1.jpg', 'an aerial view of a city'),
  photo('Camera/IMG_8112.jpg', 'opencv', 'data/aero3.jpg', 'an aerial view of a town by a forest'),
  photo('Camera/IMG_8113.jpg', 'opencv', 'data/board.jpg', 'an electronic circuit board'),
  photo('Camera/IMG_8114.jpg', 'opencv', 'data/stuff.jpg', 'a pencil, a lighter, a coin and a lid on a table'),
  photo('Camera/IMG_8115.jpg', 'opencv', 'data/ela_original.jpg', 'a black notebook with a green elastic band'),
  photo('Camera/IMG_8116.jpg', 'opencv', 'data/aloeL.jpg', 'an aloe plant in a clay pot'),
  photo('Camera/IMG_8117.jpg', 'opencv', 'text/scenetext01.jpg', 'a street sign "double parking prohibited", a car and passers-by'),
  photo('Camera/IMG_8118.jpg', 'opencv', 'text/scenetext02.jpg', 'a road sign to the sports centre, conference centre and car parks'),
  photo('Camera/IMG_8119.jpg', 'opencv', 'text/scenetext03.jpg', 'an arcade with a "copy centre" shop sign'),
  photo('Camera/IMG_8120.jpg', 'opencv', 'text/scenetext04.jpg', 'a power generator behind a wall, palm trees'),
  photo('Camera/IMG_8121.jpg', 'opencv', 'text/scenetext05.jpg', 'yellow "no parking" barriers on a road'),
  photo('Camera/IMG_8122.jpg', 'opencv', 'text/scenetext06.jpg', 'a yellow shop front, "Priory galleries at the ship"'),
];

/** Illustrations, paintings and abstract wallpapers: pictures that are not photographs. */
export const artwork = [
  photo('Wallpapers/wallpaper-01.jpg', 'ukui', '2004default.jpg', 'abstract pink ribbon on blue'),
  photo('Wallpapers/wallpaper-02.jpg', 'lomiri20', 'Fossa_by_Jasper_Roks.jpg', 'abstract purple folds'),
  photo('Wallpapers/wallpaper-03.jpg', 'lomiri20', 'Infinite-Sea_by_Aury88.jpg', 'digital art: the Milky Way over a calm sea'),
  photo('Wallpapers/wallpaper-04.jpg', 'lomiri20', 'Painting-Colors_by__herobrine7gamer.jpg', 'diagonal stripes of colour'),
  photo('Wallpapers/wallpaper-05.jpg', 'ukui', 'calla.png', 'illustration of a calla lily'),
  photo('Wallpapers/wallpaper-06.jpg', 'ukui', 'desert.png', 'flat shapes, teal and yellow'),
  photo('Wallpapers/wallpaper-07.jpg', 'ukui', 'goldfish.png', 'illustration of a pink goldfish'),
  photo('Wallpapers/wallpaper-08.jpg', 'mate', 'abstract/Elephants.jpg', 'a painting of elephants in blue'),
  photo('Wallpapers/wallpaper-09.jpg', 'opencv', 'data/starry_night.jpg', 'Van Gogh, The Starry Night'),
  photo('Wallpapers/wallpaper-10.jpg', 'plasma', 'Altai/contents/images/5120x2880.png', 'low-poly illustration of mountains and a lake'),
  photo('Wallpapers/wallpaper-11.jpg', 'plasma', 'Autumn/contents/images/2560x1600.jpg', 'painting of a girl under an autumn tree'),
  photo(
    'Wallpapers/wallpaper-12.jpg',
    'plasma',
    'SafeLanding/contents/images/5120x2880.jpg',
    'illustration of a rocket in a colourful landscape',
  ),
  photo('Wallpapers/wallpaper-13.jpg', 'plasma', 'FlyingKonqui/contents/images/2560x1600.png', 'cartoon green dragon flying over bubbles'),
  photo('Wallpapers/wallpaper-14.jpg', 'opencv', 'data/HappyFish.jpg', 'clip art of a smiling fish'),
];

/** Short clips made from one photograph each (a slow zoom), named as a phone names them. */
export const realVideos = [
  photo('Videos/VID_20250301_101500.mp4', 'skimage', 'rocket.jpg', 'a rocket on its launch pad at night'),
  photo('Videos/VID_20250302_111500.mp4', 'opencv', 'data/squirrel_cls.jpg', 'a red squirrel eating on a branch'),
  photo('Videos/VID_20250303_121500.mp4', 'plasma', 'EveningGlow/contents/images/2560x1600.jpg', 'rowing boats on a lake shore at sunset'),
  photo('Videos/VID_20250304_131500.mp4', 'mate', 'nature/Storm.jpg', 'dark storm clouds over a road'),
  photo('Videos/VID_20250305_141500.mp4', 'skimage', 'chelsea.png', 'a tabby cat, close up'),
  photo('Videos/VID_20250306_151500.mp4', 'lomiri16', 'life_by_Aitzol_Berasategi.jpg', 'a stream running over rocks in a forest'),
  photo('Videos/VID_20250307_161500.mp4', 'opencv', 'data/messi5.jpg', 'a football player kicking the ball in a stadium'),
  photo('Videos/VID_20250308_171500.mp4', 'plasma', 'Kite/contents/images/2560x1600.jpg', 'a kite flying in a blue sky with clouds'),
  photo('Videos/VID_20250309_181500.mp4', 'palapeli', 'cincinnati-bridge.jpg', 'the Roebling suspension bridge in Cincinnati at night'),
  photo('Videos/VID_20250310_191500.mp4', 'palapeli', 'castle-maintenon.jpg', 'the Château de Maintenon, a French castle with towers'),
  photo('Videos/VID_20250311_201500.mp4', 'lomiri16', 'friends_by_Aitzol_Berasategi.jpg', 'two spaniel dogs looking out of a barn window'),
];

export const realMedia = [...realPhotos, ...artwork, ...realVideos];
